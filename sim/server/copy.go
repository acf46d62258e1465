package server

import (
	"fmt"
	"net/http"
	"strconv"

	"surge/openai"
)

// copyHint reads the request's Surge-Copy header, the fraction of its
// answer that repeats its prompt, for speculative decoding: 0 when
// absent. A value that is not a fraction in [0, 1] is a 400.
func copyHint(h http.Header) (float64, *apiError) {
	v := h.Get(openai.SurgeCopyHeader)
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0 && f <= 1) {
		return 0, badRequest(fmt.Sprintf("header %s %q: want a fraction in [0, 1], e.g. 0.6.", openai.SurgeCopyHeader, v))
	}
	return f, nil
}
