package metrics

import "surge/trace"

// PrefixCache is the prefix caching a server reported for a scope: over
// the scope's successful measured requests whose usage carried
// prompt_tokens, the prompt tokens it counted and how many of them it
// took from its prefix cache (usage.prompt_tokens_details.cached_tokens,
// or llama-server's timings.cache_n).
//
// A record cannot tell a server that reported cached_tokens 0 from one
// that never reports it (the field is omitted either way), so Reported is
// true only when some request had cached tokens, and HitRate is left 0
// (and out of JSON) when it is false: a server that does not report the
// field shows "not reported", never a measured 0% hit rate.
//
// Warmup requests are excluded, like everywhere: they run against a cold
// cache and would lower the rate with misses the rest of the run does not
// suffer. The reuse the workload implies (Summary.PrefixReuse) covers the
// whole trace, warmup included, so the two differ by that too.
type PrefixCache struct {
	Requests     int   `json:"requests"`      // successful measured requests with usage.prompt_tokens
	PromptTokens int64 `json:"prompt_tokens"` // Σ usage.prompt_tokens over them
	CachedTokens int64 `json:"cached_tokens"` // Σ cached tokens over them
	// Reported is true when any of the requests reported cached tokens.
	Reported bool `json:"reported"`
	// HitRate is CachedTokens / PromptTokens, the fraction of prompt
	// tokens the server did not have to compute; 0 unless Reported.
	HitRate float64 `json:"hit_rate,omitempty"`
}

// prefixCache sums the server's prompt and cached tokens over the
// successful measured records of recs that carry usage.prompt_tokens.
func prefixCache(recs []*trace.Record) PrefixCache {
	var pc PrefixCache
	for _, r := range recs {
		if !succeeded(r) || !usageIn(r) {
			continue
		}
		pc.Requests++
		pc.PromptTokens += int64(r.ServerInputTokens)
		pc.CachedTokens += int64(r.CachedTokens)
	}
	pc.Reported = pc.CachedTokens > 0
	if pc.Reported {
		pc.HitRate = float64(pc.CachedTokens) / float64(pc.PromptTokens)
	}
	return pc
}
