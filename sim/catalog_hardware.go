package sim

import (
	"fmt"
	"math"
)

// BlockTokens is the KV-cache block size in tokens (vLLM's default).
const BlockTokens = 16

// DefaultMemoryUtilization is vLLM's default gpu_memory_utilization.
const DefaultMemoryUtilization = 0.9

// Hardware is a model served on TP identical GPUs with tensor parallelism,
// with weights and KV cache stored in the given precisions. TP <= 1 means
// one GPU. The weight precision applies to the transformer layers (MXFP4:
// to the routed experts alone); the embedding and LM head stay in
// Weights.Activations(), as quantised checkpoints (ModelOpt,
// llm-compressor) and vLLM's fp8 quantization leave them. CheckPrecision
// says whether the GPU can run the precisions.
type Hardware struct {
	Model   Model
	GPU     GPU
	TP      int
	Weights Precision
	KV      Precision
}

// tp returns the tensor-parallel degree, at least 1.
func (h Hardware) tp() float64 { return float64(max(h.TP, 1)) }

// WeightBytes returns the weight bytes held by each GPU: the layers'
// parameters at the weight precision plus the embedding and LM head at
// the activations' precision (vLLM shards both), divided by TP.
// Llama-3.1-8B in BF16 on one GPU: 16.06 GB; in FP8, 8.03 GB.
func (h Hardware) WeightBytes() float64 {
	m := h.Model
	edges := 2 * m.LMHeadParams() // embedding and LM head
	layers := (m.ArchParams() - edges) * h.Weights.Bytes()
	if h.Weights.ExpertsOnly() {
		routed := m.expertLayers() * m.ffnCount() * m.ExpertParams()
		layers = routed*h.Weights.Bytes() + (m.ArchParams()-edges-routed)*h.layerPrecision().Bytes()
	}
	return (layers + edges*h.Weights.Activations().Bytes()) / h.tp()
}

// layerPrecision is the precision of the layers' weights other than the
// routed experts: Weights, or its activations' for a precision that
// quantises the experts alone.
func (h Hardware) layerPrecision() Precision {
	if h.Weights.ExpertsOnly() {
		return h.Weights.Activations()
	}
	return h.Weights
}

// CheckPrecision returns nil when the GPU has tensor cores for the weight
// precision and the KV cache precision is one a KV cache is kept in (bf16,
// fp16 or fp8, which every GPU of the catalog can store: attention reads
// it back into BF16), and otherwise an error saying what would work.
func (h Hardware) CheckPrecision() error {
	if !h.GPU.Supports(h.Weights) {
		return h.GPU.precisionError(h.Weights)
	}
	if h.Weights.ExpertsOnly() && !h.Model.IsMoE() {
		return fmt.Errorf("%s quantises a mixture-of-experts model's experts, and %s is dense: use bf16, fp8 or fp4", h.Weights, h.Model.Name)
	}
	if h.KV == FP4 || h.KV == MXFP4 {
		return fmt.Errorf("a KV cache in %s is not modelled: vLLM keeps it in bf16, fp16 or fp8", h.KV)
	}
	return nil
}

// kvHeadsPerGPU is max(1, n_kv/TP): with more GPUs than KV heads, vLLM
// replicates heads rather than splitting one.
func (h Hardware) kvHeadsPerGPU() float64 {
	return math.Max(1, float64(h.Model.KVHeads)/h.tp())
}

// KVBytesPerToken returns the KV-cache bytes one token occupies on each GPU
// in the layers attending to the whole context, the size of a KV block
// per token: 2 (K and V) · L · n_kv/TP · d_head · bytes. Llama-3.1-8B,
// BF16, TP1: 2·32·8·128·2 = 131,072 B. With MLA it is the latent and
// rotary key, L · (kv_r + d_rope) · bytes, which every GPU of the TP group
// holds whole: DeepSeek-V3 in BF16, 61·576·2 = 70,272 B. A model with
// sliding-window layers counts the others here (gpt-oss-120b, BF16:
// 2·18·8·64·2 = 36,864 B); its window's are WindowKVBytesPerToken.
func (h Hardware) KVBytesPerToken() float64 {
	return h.kvBytesPerToken(h.Model.fullLayers())
}

// WindowKVBytesPerToken is KVBytesPerToken of the sliding-window layers:
// what one token within the window occupies in them.
func (h Hardware) WindowKVBytesPerToken() float64 {
	return h.kvBytesPerToken(h.Model.SlidingLayers)
}

// kvBytesPerToken is the KV bytes of one token in layers layers, per GPU.
func (h Hardware) kvBytesPerToken(layers int) float64 {
	m := h.Model
	if m.MLA != nil { // the latent, the same on every GPU of the group
		return float64(layers) * m.MLA.latent() * h.KV.Bytes()
	}
	return 2 * float64(layers) * h.kvHeadsPerGPU() * float64(m.HeadDim) * h.KV.Bytes()
}

// WindowBlocks is the most KV blocks a sequence's sliding-window layers
// hold, in blocks of KVBytesPerToken: the ⌈(W − 1)/16⌉ + 1 blocks a
// window of W tokens can straddle, as vLLM's hybrid KV cache manager
// keeps them, scaled by the sliding layers over the full ones (one
// block pool serves both). 0 without sliding-window layers.
// gpt-oss-120b: 9.
func (h Hardware) WindowBlocks() int {
	m := h.Model
	if m.SlidingLayers <= 0 || m.SlidingWindow <= 0 || m.fullLayers() <= 0 {
		return 0
	}
	span := (m.SlidingWindow-1+BlockTokens-1)/BlockTokens + 1
	return int(math.Ceil(float64(span) * float64(m.SlidingLayers) / float64(m.fullLayers())))
}

// ActivationReserve returns the bytes per GPU that vLLM's profiling run
// finds in use besides weights and KV cache, modelled as a fixed 1.5 GiB
// (CUDA context, CUDA graphs, NCCL buffers, allocator slack) plus the peak
// activations of one step at 8192 batched tokens,
// 8192 · (2·I·k/TP + 4·h) · 2 B (the SwiGLU gate/up output and the
// residual/QKV buffers in BF16; k active experts for MoE).
func (h Hardware) ActivationReserve() float64 {
	const fixed = 1.5 * (1 << 30)
	const tokens = 8192
	m := h.Model
	ffn := max(float64(m.Intermediate)*(m.activeFFNs()+float64(m.SharedExperts)), float64(m.DenseIntermediate))
	perToken := 2*ffn/h.tp() + 4*float64(m.Hidden)
	return fixed + tokens*perToken*2
}

// KVBlocks returns how many 16-token KV blocks fit on each GPU, as vLLM
// computes num_gpu_blocks: ⌊(u·HBM − weights − activations) /
// (16 · KV bytes per token)⌋, with u the memory-utilisation fraction
// (u <= 0 means DefaultMemoryUtilization). It returns 0 when the weights do
// not fit.
func (h Hardware) KVBlocks(u float64) int {
	if u <= 0 {
		u = DefaultMemoryUtilization
	}
	free := u*h.GPU.HBMBytes - h.WeightBytes() - h.ActivationReserve()
	if free <= 0 {
		return 0
	}
	return int(free / (BlockTokens * h.KVBytesPerToken()))
}

// KVTokens returns the KV-cache capacity in tokens: KVBlocks(u) · 16.
func (h Hardware) KVTokens(u float64) int { return h.KVBlocks(u) * BlockTokens }

// MaxContext returns the longest sequence the model accepts.
func (h Hardware) MaxContext() int { return h.Model.MaxContext }

// KVBlocksOfFree returns how many 16-token KV blocks fit on each GPU as
// TensorRT-LLM sizes its cache: the fraction f of the memory the weights
// and activations leave, ⌊f·(HBM − weights − activations) / (16 · KV
// bytes per token)⌋; 0 when the weights do not fit.
func (h Hardware) KVBlocksOfFree(f float64) int {
	free := h.GPU.HBMBytes - h.WeightBytes() - h.ActivationReserve()
	if free <= 0 || f <= 0 {
		return 0
	}
	return int(f * free / (BlockTokens * h.KVBytesPerToken()))
}
