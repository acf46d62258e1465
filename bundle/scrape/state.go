package scrape

import "math"

// State is the engine's load at one successful scrape. A field is NaN
// when the engine exposes no series for it.
type State struct {
	AtUS    int64
	Running float64 // requests in the running batch, summed over label sets
	Waiting float64 // requests queued, summed over label sets
	// KVUsage is the KV-cache fraction in use, 0..1, averaged over label
	// sets (each engine of a data-parallel server reports its own).
	KVUsage float64
	// PrefixHitRate is the fraction of prompt tokens served from the
	// prefix cache since the previous successful scrape:
	//   Δhits / Δqueries
	// from vLLM's prefix_cache_hits/queries counters or SGLang's
	// cached_tokens/prompt_tokens, summed over label sets (a counter that
	// went down was reset, and its new value is its increase). NaN at the
	// first scrape and when no prompt tokens were queried. Without those
	// counters it is the engine's own hit-rate gauge (vLLM V0's
	// gpu_prefix_cache_hit_rate, SGLang's cache_hit_rate), averaged.
	PrefixHitRate float64
}

// Names the State fields are read from, in order of preference.
var (
	runningNames = []string{"vllm:num_requests_running", "sglang:num_running_reqs", "llamacpp:requests_processing"}
	waitingNames = []string{"vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred"}
	kvNames      = []string{"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage", "llamacpp:kv_cache_usage_ratio"}
	hitGauges    = []string{"vllm:gpu_prefix_cache_hit_rate", "sglang:cache_hit_rate"}
	// hitCounters pairs a hits counter with its queries counter.
	hitCounters = [][2]string{
		{"vllm:prefix_cache_hits", "vllm:prefix_cache_queries"},
		{"sglang:cached_tokens", "sglang:prompt_tokens"},
	}
)

// State returns the engine's load at each successful scrape, in order,
// read from whichever engine's names (vLLM, SGLang, llama.cpp) the
// series holds.
func (s *Series) State() []State {
	present := s.names("")
	running := first(present, runningNames...)
	waiting := first(present, waitingNames...)
	kv := first(present, kvNames...)
	hitGauge := first(present, hitGauges...)
	var hits, queries string
	for _, p := range hitCounters {
		if h, q := first(present, p[0]), first(present, p[1]); h != "" && q != "" {
			hits, queries = h, q
			break
		}
	}
	var out []State
	prevHits, prevQueries := map[string]float64(nil), map[string]float64(nil)
	for _, sc := range s.OK() {
		st := State{AtUS: sc.AtUS, Running: total(sc, running), Waiting: total(sc, waiting),
			KVUsage: mean(sc, kv), PrefixHitRate: mean(sc, hitGauge)}
		if hits != "" {
			h, q := values(sc, hits), values(sc, queries)
			st.PrefixHitRate = math.NaN()
			if prevHits != nil {
				if dq := increase(prevQueries, q); dq > 0 {
					st.PrefixHitRate = increase(prevHits, h) / dq
				}
			}
			prevHits, prevQueries = h, q
		}
		out = append(out, st)
	}
	return out
}

// values returns a scalar family's values in one scrape by label set.
func values(sc Scrape, name string) map[string]float64 {
	out := map[string]float64{}
	for _, smp := range sc.Samples {
		if smp.Name == name && smp.Value != nil {
			out[labelKey(smp.Labels)] = float64(*smp.Value)
		}
	}
	return out
}

// total sums a scalar family over its label sets; NaN if absent.
func total(sc Scrape, name string) float64 {
	v := values(sc, name)
	if len(v) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return sum
}

// mean averages a scalar family over its label sets; NaN if absent.
func mean(sc Scrape, name string) float64 {
	v := values(sc, name)
	if len(v) == 0 {
		return math.NaN()
	}
	return total(sc, name) / float64(len(v))
}

// increase sums, over the label sets of cur, how much each counter grew
// since prev: cur − prev, or cur when it went down (a reset) or is new.
func increase(prev, cur map[string]float64) float64 {
	sum := 0.0
	for k, c := range cur {
		p, ok := prev[k]
		if !ok || c < p {
			p = 0
		}
		sum += c - p
	}
	return sum
}
