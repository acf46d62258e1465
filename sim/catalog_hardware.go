package sim

import "math"

// BlockTokens is the KV-cache block size in tokens (vLLM's default).
const BlockTokens = 16

// DefaultMemoryUtilization is vLLM's default gpu_memory_utilization.
const DefaultMemoryUtilization = 0.9

// Hardware is a model served on TP identical GPUs with tensor parallelism,
// with weights and KV cache stored in the given precisions. TP <= 1 means
// one GPU.
type Hardware struct {
	Model   Model
	GPU     GPU
	TP      int
	Weights Precision
	KV      Precision
}

// tp returns the tensor-parallel degree, at least 1.
func (h Hardware) tp() float64 { return float64(max(h.TP, 1)) }

// WeightBytes returns the weight bytes held by each GPU: all parameters
// (including embedding and LM head, which vLLM also shards) times the
// weight precision, divided by TP. Llama-3.1-8B in BF16 on one GPU: 16.06 GB.
func (h Hardware) WeightBytes() float64 {
	return h.Model.ArchParams() * h.Weights.Bytes() / h.tp()
}

// kvHeadsPerGPU is max(1, n_kv/TP): with more GPUs than KV heads, vLLM
// replicates heads rather than splitting one.
func (h Hardware) kvHeadsPerGPU() float64 {
	return math.Max(1, float64(h.Model.KVHeads)/h.tp())
}

// KVBytesPerToken returns the KV-cache bytes one token occupies on each GPU:
// 2 (K and V) · L · n_kv/TP · d_head · bytes. Llama-3.1-8B, BF16, TP1:
// 2·32·8·128·2 = 131,072 B.
func (h Hardware) KVBytesPerToken() float64 {
	m := h.Model
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
	perToken := 2*float64(m.Intermediate)*m.activeFFNs()/h.tp() + 4*float64(m.Hidden)
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
