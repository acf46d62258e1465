package sim

import (
	"fmt"
	"slices"
	"strings"
)

// Model is a transformer's architecture as far as the cost model needs it.
// Dense models have Experts == 0; for a mixture-of-experts model
// Intermediate is the FFN width of one expert and ActiveExperts experts of
// Experts run per token in every layer (but the first DenseLayers, whose
// FFN is dense, DenseIntermediate wide), with SharedExperts more that
// every token runs. Attention is grouped-query (Heads, KVHeads, HeadDim)
// unless MLA says it is multi-head latent attention; SlidingLayers of the
// Layers attend only to the last SlidingWindow positions.
type Model struct {
	Name          string
	Layers        int
	Hidden        int
	Heads         int // query heads
	KVHeads       int
	HeadDim       int
	Intermediate  int // SwiGLU FFN width (per expert for MoE)
	Vocab         int
	Params        float64 // total parameters, as published
	ActiveParams  float64 // parameters used per token, as published
	Experts       int     // routed experts per layer; 0 for dense
	ActiveExperts int     // experts per token (top-k); 0 for dense
	// SharedExperts are experts of Intermediate width every token runs
	// besides its routed ones (DeepSeek-V3: 1).
	SharedExperts int
	// DenseLayers are the first layers of a mixture-of-experts model,
	// whose FFN is one dense SwiGLU of DenseIntermediate (DeepSeek-V3: 3
	// of 61, 18,432 wide).
	DenseLayers, DenseIntermediate int
	MLA                            *MLA // multi-head latent attention; nil: grouped-query
	// SlidingLayers are the layers whose attention sees only the last
	// SlidingWindow tokens (gpt-oss: every other layer, 128 tokens); 0
	// for a model whose every layer attends to the whole context.
	SlidingLayers, SlidingWindow int
	MaxContext                   int // max_position_embeddings
	// Native is the precision the checkpoint ships in, the --dtype a
	// server loads it in unless told otherwise (gpt-oss: MXFP4 experts;
	// DeepSeek-V3: FP8); the zero value is BF16.
	Native  Precision
	Aliases []string
}

// fullLayers is the number of layers attending to the whole context.
func (m Model) fullLayers() int { return m.Layers - m.SlidingLayers }

// MLA is multi-head latent attention (DeepSeek-V2/V3): queries through a
// low-rank QLoRA projection, keys and values from a KVLoRA-wide latent
// that is all the KV cache holds, with QKRope more dimensions of rotary
// key shared by the heads. Each of the Heads has QKNope + QKRope query
// and key dimensions and VHead value dimensions.
type MLA struct {
	QLoRA, KVLoRA, QKNope, QKRope, VHead int
}

// latent is the KV cache's width per token and layer: the latent and
// the rotary key, KVLoRA + QKRope.
func (a MLA) latent() float64 { return float64(a.KVLoRA + a.QKRope) }

// models is the model catalog. Architecture fields are from the HF
// config.json copies cited in /work/shared/reference/README.md ("Model
// configurations"); parameter counts are the README's, which it checks
// against the official sizes. It is never modified.
var models = []Model{
	// Source: LLMServingSim configs/model (HF meta-llama/Llama-3.1-8B config.json).
	{Name: "Llama-3.1-8B", Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, HeadDim: 128,
		Intermediate: 14336, Vocab: 128256, Params: 8.03e9, ActiveParams: 8.03e9, MaxContext: 131072,
		Aliases: []string{"llama-3.1-8b-instruct", "llama3.1-8b", "llama-3-8b", "llama-3-8b-instruct"}},
	// Source: LLMServingSim configs/model (HF meta-llama/Llama-3.1-70B config.json).
	{Name: "Llama-3.1-70B", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, HeadDim: 128,
		Intermediate: 28672, Vocab: 128256, Params: 70.6e9, ActiveParams: 70.6e9, MaxContext: 131072,
		Aliases: []string{"llama-3.1-70b-instruct", "llama3.1-70b", "llama-3-70b", "llama-3-70b-instruct"}},
	// Source: aiconfigurator model_configs (HF meta-llama/Llama-3.1-405B config.json), the
	// shapes of /work/shared/reference/README.md: 126 layers, 16384 hidden, 128 query and
	// 8 KV heads, FFN 53248; 405.9 B parameters computed there from them.
	{Name: "Llama-3.1-405B", Layers: 126, Hidden: 16384, Heads: 128, KVHeads: 8, HeadDim: 128,
		Intermediate: 53248, Vocab: 128256, Params: 405.9e9, ActiveParams: 405.9e9, MaxContext: 131072,
		Aliases: []string{"llama-3.1-405b-instruct", "llama3.1-405b", "llama-3.1-405b-instruct-fp8"}},
	// Source: same architecture as Llama-3.1-70B (HF meta-llama/Llama-3.3-70B-Instruct config.json).
	{Name: "Llama-3.3-70B", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, HeadDim: 128,
		Intermediate: 28672, Vocab: 128256, Params: 70.6e9, ActiveParams: 70.6e9, MaxContext: 131072,
		Aliases: []string{"llama-3.3-70b-instruct", "llama3.3-70b"}},
	// Source: aiconfigurator model_configs (HF Qwen/Qwen3-8B config.json); 40,960 native context.
	// Qwen3-Reranker-8B has its dimensions (36 layers, 4096 hidden, 12288 FFN, 32/8 heads, 40,960 context).
	// Qwen3-VL-8B's language model has these shapes too (HF
	// Qwen/Qwen3-VL-8B-Instruct config.json, text_config); the engine
	// costs its images as prefill tokens of it, not its vision encoder.
	{Name: "Qwen3-8B", Layers: 36, Hidden: 4096, Heads: 32, KVHeads: 8, HeadDim: 128,
		Intermediate: 12288, Vocab: 151936, Params: 8.2e9, ActiveParams: 8.2e9, MaxContext: 40960,
		Aliases: []string{"qwen3-reranker-8b", "qwen3-vl-8b-instruct"}},
	// Source: LLMServingSim configs/model (HF Qwen/Qwen3-32B config.json).
	{Name: "Qwen3-32B", Layers: 64, Hidden: 5120, Heads: 64, KVHeads: 8, HeadDim: 128,
		Intermediate: 25600, Vocab: 151936, Params: 32.8e9, ActiveParams: 32.8e9, MaxContext: 40960},
	// Source: LLMServingSim configs/model (HF mistralai/Mixtral-8x7B-v0.1 config.json); 8 experts, top-2.
	{Name: "Mixtral-8x7B", Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, HeadDim: 128,
		Intermediate: 14336, Vocab: 32000, Params: 46.7e9, ActiveParams: 12.9e9,
		Experts: 8, ActiveExperts: 2, MaxContext: 32768,
		Aliases: []string{"mixtral-8x7b-instruct", "mixtral-8x7b-instruct-v0.1", "mixtral-8x7b-v0.1"}},
	// Source: LLMServingSim configs/model (HF Qwen/Qwen3-30B-A3B config.json); 128 experts, top-8, expert I=768.
	{Name: "Qwen3-30B-A3B", Layers: 48, Hidden: 2048, Heads: 32, KVHeads: 4, HeadDim: 128,
		Intermediate: 768, Vocab: 151936, Params: 30.5e9, ActiveParams: 3.3e9,
		Experts: 128, ActiveExperts: 8, MaxContext: 40960},
	// Source: aiconfigurator model_configs (HF Qwen/Qwen3-235B-A22B config.json); 128 experts, top-8,
	// expert I=1536 (moe_intermediate_size), every layer MoE as in Qwen3-30B-A3B; 235.1 B / 22.2 B.
	{Name: "Qwen3-235B-A22B", Layers: 94, Hidden: 4096, Heads: 64, KVHeads: 4, HeadDim: 128,
		Intermediate: 1536, Vocab: 151936, Params: 235.1e9, ActiveParams: 22.2e9,
		Experts: 128, ActiveExperts: 8, MaxContext: 40960},
	// Source: aiconfigurator model_configs and HF deepseek-ai/DeepSeek-V3 config.json, the row
	// of /work/shared/reference/README.md: 61 layers, 7168 hidden, 128 heads of multi-head
	// latent attention (q_lora_rank 1536, kv_lora_rank 512, qk_nope 128, qk_rope 64, v 128),
	// 256 routed experts (top-8) and 1 shared, expert I=2048, the first 3 layers dense with
	// I=18432, vocab 129,280, 163,840 context; 671 B / 37.6 B parameters without the MTP
	// module (HF's 685 B counts it). R1 has the same architecture.
	{Name: "DeepSeek-V3", Layers: 61, Hidden: 7168, Heads: 128, KVHeads: 128, HeadDim: 192,
		Intermediate: 2048, Vocab: 129280, Params: 671e9, ActiveParams: 37.6e9,
		Experts: 256, ActiveExperts: 8, SharedExperts: 1, DenseLayers: 3, DenseIntermediate: 18432,
		MLA: &MLA{QLoRA: 1536, KVLoRA: 512, QKNope: 128, QKRope: 64, VHead: 128}, MaxContext: 163840,
		Native:  FP8, // the checkpoint's block-scaled FP8 (quantization_config fp8, 128×128 blocks)
		Aliases: []string{"deepseek-v3-0324", "deepseek-r1", "deepseek-r1-0528", "deepseek-v3.1"}},
	// Source: HF openai/gpt-oss-120b config.json and the gpt-oss model card (OpenAI,
	// arXiv:2508.10925, 2025): 36 layers, 2880 hidden, 64 query and 8 KV heads of 64
	// dimensions, 128 experts (top-4) of I=2880, vocab 201,088, 131,072 context; layer_types
	// alternate sliding_attention (window 128) and full_attention. The checkpoint's experts
	// are MXFP4 (quantization_config mxfp4, attention, router, embedding and LM head left
	// in BF16). 116.8 B parameters; the card's 5.13 B active counts the unembedding but not
	// the embedding table, 5.71 B with it as the catalog counts. Attention biases and sinks
	// are left out (< 0.01%).
	{Name: "gpt-oss-120b", Layers: 36, Hidden: 2880, Heads: 64, KVHeads: 8, HeadDim: 64,
		Intermediate: 2880, Vocab: 201088, Params: 116.83e9, ActiveParams: 5.71e9,
		Experts: 128, ActiveExperts: 4, SlidingLayers: 18, SlidingWindow: 128, MaxContext: 131072,
		Native: MXFP4, Aliases: []string{"openai/gpt-oss-120b", "gpt-oss:120b"}},
	// Source: HF openai/gpt-oss-20b config.json and the same model card: gpt-oss-120b's
	// shapes with 24 layers and 32 experts (top-4); 20.91 B parameters, 3.61 B active by
	// the card's count, 4.19 B with the embedding table.
	{Name: "gpt-oss-20b", Layers: 24, Hidden: 2880, Heads: 64, KVHeads: 8, HeadDim: 64,
		Intermediate: 2880, Vocab: 201088, Params: 20.91e9, ActiveParams: 4.19e9,
		Experts: 32, ActiveExperts: 4, SlidingLayers: 12, SlidingWindow: 128, MaxContext: 131072,
		Native: MXFP4, Aliases: []string{"openai/gpt-oss-20b", "gpt-oss:20b"}},
	// Source: the Qwen2.5-7B shapes of /work/shared/reference/README.md (GenZ, citing HF
	// Qwen/Qwen2.5-7B-Instruct config.json); the -1M release (HF Qwen/Qwen2.5-7B-Instruct-1M)
	// keeps them and raises max_position_embeddings to 1,010,000, for long agent contexts.
	{Name: "Qwen2.5-7B-1M", Layers: 28, Hidden: 3584, Heads: 28, KVHeads: 4, HeadDim: 128,
		Intermediate: 18944, Vocab: 152064, Params: 7.6e9, ActiveParams: 7.6e9, MaxContext: 1010000,
		Aliases: []string{"qwen2.5-7b-instruct-1m"}},
	// Source: HF meta-llama/Llama-2-70b-hf config.json (the shapes of Vidur
	// data/model_configs/meta-llama/Llama-2-70b-hf.yml, whose vocab 32768 is padded); 4k context.
	// 68.98 B parameters, the checkpoint's count. The chat model has the same architecture.
	{Name: "Llama-2-70B", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, HeadDim: 128,
		Intermediate: 28672, Vocab: 32000, Params: 68.98e9, ActiveParams: 68.98e9, MaxContext: 4096,
		Aliases: []string{"llama-2-70b-hf", "llama-2-70b-chat", "llama-2-70b-chat-hf", "llama2-70b"}},
}

// IsMoE reports whether the model routes tokens to experts.
func (m Model) IsMoE() bool { return m.Experts > 0 }

// AttentionParams returns the attention projection parameters of one layer:
// Q and O are h·(n_q·d), K and V are h·(n_kv·d) each. With MLA, the query's
// down and up projections h·q_r + q_r·n·(d_nope + d_rope), the latent's
// h·(kv_r + d_rope), its up projection to keys and values
// kv_r·n·(d_nope + d_v), and O, n·d_v·h.
func (m Model) AttentionParams() float64 {
	h, n := float64(m.Hidden), float64(m.Heads)
	if a := m.MLA; a != nil {
		qr, kvr := float64(a.QLoRA), float64(a.KVLoRA)
		qk, v := float64(a.QKNope+a.QKRope), float64(a.VHead)
		return h*qr + qr*n*qk + h*a.latent() + kvr*n*float64(a.QKNope+a.VHead) + n*v*h
	}
	q, kv := n*float64(m.HeadDim), float64(m.KVHeads*m.HeadDim)
	return 2*h*q + 2*h*kv
}

// AttentionFLOPs returns the attention FLOPs of one token against one
// position of its context in one layer, prefill and decode: 4·n_q·d for
// grouped-query attention (scores and values, 2 each). MLA prefills on
// keys and values decompressed from the latent, 2·n·(d_nope + d_rope) +
// 2·n·d_v, and decodes on the latent itself with the up projections
// absorbed into the query and output, 2·n·(kv_r + d_rope) + 2·n·kv_r, as
// vLLM and SGLang run it.
func (m Model) AttentionFLOPs() (prefill, decode float64) {
	n := float64(m.Heads)
	if a := m.MLA; a != nil {
		return 2*n*float64(a.QKNope+a.QKRope) + 2*n*float64(a.VHead), 2*n*a.latent() + 2*n*float64(a.KVLoRA)
	}
	f := 4 * n * float64(m.HeadDim)
	return f, f
}

// ExpertParams returns the parameters of one SwiGLU FFN (one expert for
// MoE): 3·h·I.
func (m Model) ExpertParams() float64 {
	return 3 * float64(m.Hidden) * float64(m.Intermediate)
}

// ffnCount is the number of routed FFNs stored per layer (1 for dense).
func (m Model) ffnCount() float64 { return float64(max(m.Experts, 1)) }

// activeFFNs is the number of routed FFNs each token runs per layer (1
// for dense).
func (m Model) activeFFNs() float64 { return float64(max(m.ActiveExperts, 1)) }

// expertLayers is the number of layers whose FFN is Intermediate wide,
// routed or not: all but the DenseLayers.
func (m Model) expertLayers() float64 { return float64(m.Layers - m.DenseLayers) }

// fixedFFNParams are the FFN parameters every token runs whatever its
// routing, over all layers: the dense layers' FFNs and the shared
// experts.
func (m Model) fixedFFNParams() float64 {
	dense := 3 * float64(m.Hidden) * float64(m.DenseIntermediate) * float64(m.DenseLayers)
	return dense + m.expertLayers()*float64(m.SharedExperts)*m.ExpertParams()
}

// layerParams is the parameters of the layers (no embedding or LM head)
// with ffns routed FFNs a layer.
func (m Model) layerParams(ffns float64) float64 {
	return float64(m.Layers)*m.AttentionParams() + m.fixedFFNParams() + m.expertLayers()*ffns*m.ExpertParams()
}

// LMHeadParams returns the output projection parameters h·V (untied in
// every catalog model, so the input embedding is a separate table that a
// step only gathers from).
func (m Model) LMHeadParams() float64 { return float64(m.Hidden) * float64(m.Vocab) }

// ArchParams returns the total parameter count computed from the
// architecture: L·attention + (L − L_d)·(E + S)·3hI + L_d·3hI_d + 2·h·V
// (E routed and S shared experts in all but the L_d dense layers;
// embedding and LM head untied). Norms and routers are ignored (< 0.1 %).
func (m Model) ArchParams() float64 {
	return m.layerParams(m.ffnCount()) + 2*m.LMHeadParams()
}

// ArchActiveParams is ArchParams with only the active experts counted.
func (m Model) ArchActiveParams() float64 {
	return m.layerParams(m.activeFFNs()) + 2*m.LMHeadParams()
}

// Models returns a copy of the model catalog.
func Models() []Model { return slices.Clone(models) }

// LookupModel finds a model by name or alias, case-insensitive, ignoring an
// "org/" prefix (so "meta-llama/Llama-3.1-8B-Instruct" finds Llama-3.1-8B).
// The error lists the catalog.
func LookupModel(name string) (Model, error) {
	key := normName(name)
	for _, m := range models {
		if normName(m.Name) == key || slices.ContainsFunc(m.Aliases, func(a string) bool { return normName(a) == key }) {
			return m, nil
		}
	}
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name
	}
	return Model{}, fmt.Errorf("unknown model %q (known: %s)", name, strings.Join(names, ", "))
}

// normName lower-cases a name and drops any "org/" prefix.
func normName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
