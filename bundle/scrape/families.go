package scrape

import "strings"

// Known lists the metric families kept from every scrape: the vLLM (V1
// and older V0 names), SGLang and llama.cpp series that describe load,
// KV-cache pressure, prefix caching, preemption, token throughput and
// engine-side latency, and speculative decoding's acceptance. A counter is listed without its _total suffix and
// matches with or without it, as text exposition from Python's
// prometheus_client writes "vllm:prompt_tokens_total" and OpenMetrics
// writes the family "vllm:prompt_tokens".
var Known = []string{
	// vLLM
	"vllm:num_requests_running",
	"vllm:num_requests_waiting",
	"vllm:kv_cache_usage_perc",
	"vllm:gpu_cache_usage_perc",
	"vllm:gpu_prefix_cache_hit_rate",
	"vllm:prefix_cache_queries",
	"vllm:prefix_cache_hits",
	"vllm:num_preemptions",
	"vllm:prompt_tokens",
	"vllm:generation_tokens",
	"vllm:request_success",
	"vllm:time_to_first_token_seconds",
	"vllm:inter_token_latency_seconds",
	"vllm:time_per_output_token_seconds",
	"vllm:e2e_request_latency_seconds",
	"vllm:request_queue_time_seconds",
	"vllm:spec_decode_num_drafts",
	"vllm:spec_decode_num_draft_tokens",
	"vllm:spec_decode_num_accepted_tokens",
	"vllm:spec_decode_num_accepted_tokens_per_pos",
	// SGLang
	"sglang:num_running_reqs",
	"sglang:num_queue_reqs",
	"sglang:token_usage",
	"sglang:cache_hit_rate",
	"sglang:cached_tokens",
	"sglang:num_retracted_requests",
	"sglang:prompt_tokens",
	"sglang:generation_tokens",
	"sglang:time_to_first_token_seconds",
	"sglang:inter_token_latency_seconds",
	"sglang:time_per_output_token_seconds",
	"sglang:e2e_request_latency_seconds",
	"sglang:queue_time_seconds",
	"sglang:spec_accept_rate",
	"sglang:spec_accept_length",
	// llama.cpp (llama-server --metrics)
	"llamacpp:requests_processing",
	"llamacpp:requests_deferred",
	"llamacpp:kv_cache_usage_ratio",
	"llamacpp:prompt_tokens",
	"llamacpp:prompt_seconds",
	"llamacpp:tokens_predicted",
	"llamacpp:tokens_predicted_seconds",
	"llamacpp:prompt_tokens_seconds",
	"llamacpp:predicted_tokens_seconds",
	"llamacpp:n_decode",
	"llamacpp:n_busy_slots_per_decode",
	"llamacpp:n_tokens_max",
}

// filter decides which families a scrape keeps: the Known ones plus the
// names and prefixes a user listed.
type filter struct {
	known map[string]bool
	keep  []string
}

func newFilter(keep []string) filter {
	f := filter{known: make(map[string]bool, 2*len(Known))}
	for _, k := range Known {
		f.known[k], f.known[k+"_total"] = true, true
	}
	for _, k := range keep {
		if k = strings.TrimSpace(k); k != "" {
			f.keep = append(f.keep, k)
		}
	}
	return f
}

// keeps reports whether the family name is kept. A user entry matches a
// name it prefixes ("vllm:" keeps every vLLM family), but a counter's or
// histogram's _created timestamp (a constant, noise in a time series) is
// kept only when listed by its exact name.
func (f filter) keeps(name string) bool {
	if f.known[name] {
		return true
	}
	created := strings.HasSuffix(name, "_created")
	for _, k := range f.keep {
		if name == k || (!created && strings.HasPrefix(name, k)) {
			return true
		}
	}
	return false
}

// Metric names an engine-side latency histogram.
type Metric int

// The engine-side latency histograms Family can name.
const (
	TTFT  Metric = iota // request arrival → first token
	ITL                 // gap between consecutive output tokens
	E2E                 // request arrival → last token
	Queue               // time waiting before the first schedule
)

// String returns the metric's short name, e.g. "ttft".
func (m Metric) String() string {
	switch m {
	case TTFT:
		return "ttft"
	case ITL:
		return "itl"
	case E2E:
		return "e2e"
	case Queue:
		return "queue"
	}
	return "unknown"
}

// latencyFamilies lists, per metric, the histogram names engines use, in
// order of preference: vLLM V1's inter_token_latency before the older
// time_per_output_token (which V1 still exposes, deprecated, with the same
// observations).
var latencyFamilies = map[Metric][]string{
	TTFT:  {"vllm:time_to_first_token_seconds", "sglang:time_to_first_token_seconds"},
	ITL:   {"vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds", "sglang:inter_token_latency_seconds", "sglang:time_per_output_token_seconds"},
	E2E:   {"vllm:e2e_request_latency_seconds", "sglang:e2e_request_latency_seconds"},
	Queue: {"vllm:request_queue_time_seconds", "sglang:queue_time_seconds"},
}

// Family returns the name of the engine-side histogram for m found in the
// series (vLLM's or SGLang's), or "" when the engine exposes none.
func (s *Series) Family(m Metric) string {
	present := s.names("histogram")
	for _, name := range latencyFamilies[m] {
		if present[name] {
			return name
		}
	}
	return ""
}

// names returns the names of the families of type typ (any type if "")
// seen in any successful scrape.
func (s *Series) names(typ string) map[string]bool {
	seen := map[string]bool{}
	for _, sc := range s.Scrapes {
		for _, smp := range sc.Samples {
			if typ == "" || smp.Type == typ {
				seen[smp.Name] = true
			}
		}
	}
	return seen
}

// first returns the first of candidates (each also tried with _total)
// present in present, or "".
func first(present map[string]bool, candidates ...string) string {
	for _, c := range candidates {
		for _, n := range []string{c, c + "_total"} {
			if present[n] {
				return n
			}
		}
	}
	return ""
}
