package client

import (
	"math"
	"time"

	"surge/openai"
)

// server records what in says the server measured: cached prompt tokens
// and its own timings (see Result). surge_timings wins over llama-server's
// timings if a chunk has both; a chunk with neither changes nothing.
func (res *Result) server(in *openai.Info) {
	if in.HasUsage && in.CachedTokens != 0 {
		res.CachedTokens = in.CachedTokens
	} else if in.HasTimings && in.Timings.CacheN != 0 {
		res.CachedTokens = in.Timings.CacheN
	}
	switch {
	case in.HasSurgeTimings:
		t := in.SurgeTimings
		res.ServerQueue, res.ServerTTFT, res.ServerE2E = ms(t.QueuedMS), ms(t.TTFTMS), ms(t.E2EMS)
	case in.HasTimings:
		t := in.Timings
		res.ServerQueue, res.ServerTTFT, res.ServerE2E = 0, ms(t.PromptMS), ms(t.PromptMS+t.PredictedMS)
	}
}

// ms converts milliseconds to a duration rounded to the nanosecond; a
// negative or absurd value (over a year) gives 0.
func ms(v float64) time.Duration {
	const year = 365 * 24 * 3600e3
	if !(v >= 0 && v <= year) {
		return 0
	}
	return time.Duration(math.Round(v * float64(time.Millisecond)))
}
