package sim

import "fmt"

// tpChoices are the tensor-parallel degrees a fit hint considers.
var tpChoices = []int{1, 2, 4, 8}

// MinTP returns the fewest GPUs of hw's kind (1, 2, 4 or 8) whose memory,
// at utilisation u, holds hw's model with a KV cache for one sequence of
// its whole context, as vLLM needs to start with its default
// --max-model-len; 0 when eight do not.
func (h Hardware) MinTP(u float64) int {
	for _, tp := range tpChoices {
		h.TP = tp
		if h.KVBlocks(u) > 0 && h.KVTokens(u) >= h.MaxContext() {
			return tp
		}
	}
	return 0
}

// FitError returns nil when hw's model fits on hw at utilisation u with
// room for a KV cache, and otherwise an error saying so and what would
// fit it (MinTP): the --tp on the same GPU, or else the first GPU of the
// catalog that needs the fewest and computes in hw's weight precision.
func (h Hardware) FitError(u float64) error {
	if h.KVBlocks(u) > 0 {
		return nil
	}
	what := fmt.Sprintf("%s (%.0f GB of %s weights) does not fit on %d×%s with room for a KV cache",
		h.Model.Name, h.WeightBytes()*h.tp()/1e9, h.Weights, max(h.TP, 1), h.GPU.Name)
	if tp := h.MinTP(u); tp > 0 {
		return fmt.Errorf("%s: --tp %d would fit it%s", what, tp, h.fp8Hint(u, tp))
	}
	best, bestTP := "", 0
	for _, g := range gpus {
		if !g.Supports(h.Weights) {
			continue
		}
		other := h
		other.GPU = g
		if tp := other.MinTP(u); tp > 0 && (bestTP == 0 || tp < bestTP) {
			best, bestTP = g.Name, tp
		}
	}
	if bestTP > 0 {
		return fmt.Errorf("%s, nor on 8 of them: --gpu %s --tp %d would fit it%s", what, best, bestTP, h.fp8Hint(u, 0))
	}
	return fmt.Errorf("%s, nor on 8 of any GPU of the catalog", what)
}

// fp8Hint suggests FP8 weights when hw's GPU computes in FP8 and they
// would fit hw's model on fewer than tp GPUs (tp 0: on any count), and
// says nothing otherwise.
func (h Hardware) fp8Hint(u float64, tp int) string {
	if h.Weights.Bytes() <= FP8.Bytes() || !h.GPU.Supports(FP8) {
		return ""
	}
	h.Weights = FP8
	if fp8 := h.MinTP(u); fp8 > 0 && (tp == 0 || fp8 < tp) {
		return fmt.Sprintf(", as would --dtype fp8 --tp %d", fp8)
	}
	return ""
}
