package sim

import (
	"errors"
	"math"
)

// BlockTokens is the KV-cache block size in tokens (vLLM's default).
const BlockTokens = 16

// DefaultMemoryUtilization is vLLM's default gpu_memory_utilization.
const DefaultMemoryUtilization = 0.9

// Hardware is a model served on TP identical GPUs with tensor parallelism,
// with weights and KV cache stored in the given precisions. TP <= 1 means
// one GPU. The weight precision applies to the transformer layers; the
// embedding and LM head stay in Weights.Activations(), as quantised
// checkpoints (ModelOpt, llm-compressor) and vLLM's fp8 quantization
// leave them. CheckPrecision says whether the GPU can run the precisions.
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
	return ((m.ArchParams()-edges)*h.Weights.Bytes() + edges*h.Weights.Activations().Bytes()) / h.tp()
}

// CheckPrecision returns nil when the GPU has tensor cores for the weight
// precision and the KV cache precision is one a KV cache is kept in (bf16,
// fp16 or fp8, which every GPU of the catalog can store: attention reads
// it back into BF16), and otherwise an error saying what would work.
func (h Hardware) CheckPrecision() error {
	if !h.GPU.Supports(h.Weights) {
		return h.GPU.precisionError(h.Weights)
	}
	if h.KV == FP4 {
		return errors.New("a KV cache in fp4 is not modelled: vLLM keeps it in bf16, fp16 or fp8")
	}
	return nil
}

// kvHeadsPerGPU is max(1, n_kv/TP): with more GPUs than KV heads, vLLM
// replicates heads rather than splitting one.
func (h Hardware) kvHeadsPerGPU() float64 {
	return math.Max(1, float64(h.Model.KVHeads)/h.tp())
}

// KVBytesPerToken returns the KV-cache bytes one token occupies on each GPU:
// 2 (K and V) · L · n_kv/TP · d_head · bytes. Llama-3.1-8B, BF16, TP1:
// 2·32·8·128·2 = 131,072 B. With MLA it is the latent and rotary key,
// L · (kv_r + d_rope) · bytes, which every GPU of the TP group holds whole:
// DeepSeek-V3 in BF16, 61·576·2 = 70,272 B.
func (h Hardware) KVBytesPerToken() float64 {
	m := h.Model
	if m.MLA != nil { // the latent, the same on every GPU of the group
		return float64(m.Layers) * m.MLA.latent() * h.KV.Bytes()
	}
	return 2 * float64(m.Layers) * h.kvHeadsPerGPU() * float64(m.HeadDim) * h.KV.Bytes()
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
