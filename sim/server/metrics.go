package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"surge/sim"
)

// Histogram buckets, in seconds, as vLLM V1 declares them.
var (
	ttftBuckets = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
		0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}
	itlBuckets = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75,
		1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0}
	e2eBuckets = []float64{0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
		40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0}
)

// metrics is a server's Prometheus registry, with vLLM's metric names and
// the label model_name. Gauges and engine counters read the stats the loop
// publishes after each step; latency histograms are observed by the loop
// when it delivers events.
type metrics struct {
	reg     *prometheus.Registry
	ttft    prometheus.Histogram
	itl     prometheus.Histogram
	e2e     prometheus.Histogram
	success *prometheus.CounterVec
}

func newMetrics(model string, drafts int, stats func() sim.Stats) *metrics {
	labels := prometheus.Labels{"model_name": model}
	m := &metrics{reg: prometheus.NewRegistry()}
	hist := func(name, help string, buckets []float64) prometheus.Histogram {
		h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets, ConstLabels: labels})
		m.reg.MustRegister(h)
		return h
	}
	m.ttft = hist("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", ttftBuckets)
	m.itl = hist("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", itlBuckets)
	m.e2e = hist("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", e2eBuckets)
	m.success = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "vllm:request_success_total",
		Help: "Count of finished requests by finish reason.", ConstLabels: labels}, []string{"finished_reason"})
	m.reg.MustRegister(m.success)
	gauge := func(name, help string, f func(sim.Stats) float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help, ConstLabels: labels},
			func() float64 { return f(stats()) }))
	}
	counter := func(name, help string, f func(sim.Stats) int64) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help, ConstLabels: labels},
			func() float64 { return float64(f(stats())) }))
	}
	gauge("vllm:num_requests_running", "Number of requests in model execution batches.",
		func(s sim.Stats) float64 { return float64(s.Running) })
	gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.",
		func(s sim.Stats) float64 { return float64(s.Waiting) })
	gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.",
		func(s sim.Stats) float64 { return s.KVUsage })
	counter("vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.",
		func(s sim.Stats) int64 { return s.PrefixCacheQueries })
	counter("vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.",
		func(s sim.Stats) int64 { return s.PrefixCacheHits })
	counter("vllm:num_preemptions_total", "Cumulative number of preemptions from the engine.",
		func(s sim.Stats) int64 { return s.Preemptions })
	counter("vllm:prompt_tokens_total", "Number of prefill tokens processed.",
		func(s sim.Stats) int64 { return s.PromptTokens })
	counter("vllm:generation_tokens_total", "Number of generation tokens processed.",
		func(s sim.Stats) int64 { return s.GenerationTokens })
	if drafts > 0 {
		m.reg.MustRegister(newSpecCollector(labels, drafts, stats))
	}
	return m
}

// handler serves the registry in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
