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
// catalog that needs the fewest.
func (h Hardware) FitError(u float64) error {
	if h.KVBlocks(u) > 0 {
		return nil
	}
	what := fmt.Sprintf("%s (%.0f GB of weights) does not fit on %d×%s with room for a KV cache",
		h.Model.Name, h.Model.ArchParams()*h.Weights.Bytes()/1e9, max(h.TP, 1), h.GPU.Name)
	if tp := h.MinTP(u); tp > 0 {
		return fmt.Errorf("%s: --tp %d would fit it", what, tp)
	}
	best, bestTP := "", 0
	for _, g := range gpus {
		other := h
		other.GPU = g
		if tp := other.MinTP(u); tp > 0 && (bestTP == 0 || tp < bestTP) {
			best, bestTP = g.Name, tp
		}
	}
	if bestTP > 0 {
		return fmt.Errorf("%s, nor on 8 of them: --gpu %s --tp %d would fit it", what, best, bestTP)
	}
	return fmt.Errorf("%s, nor on 8 of any GPU of the catalog", what)
}
