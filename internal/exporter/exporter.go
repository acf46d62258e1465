// Package exporter exposes surge's own metrics during a run, in Prometheus'
// format, so that a dashboard can watch a run (or every shard of one) as
// it goes. The figures of record stay the records file and its report:
// these are for watching.
//
// Metrics, each labelled with client and model (and shard, for a shard of
// a sharded run):
//
//	surge_requests_total{outcome}            requests finished: outcome "ok", the error class, or "fault" for
//	                                         one that carried an injected fault (counted nowhere else)
//
// The histograms and token counts take the report's populations
// (metrics.Population): schedule lag over the measured sent requests,
// latencies and tokens over the measured successful ones, so warmup,
// faulted and dropped requests count under their outcome only.
//
//	surge_requests_in_flight                 requests sent and not finished (no client label)
//	surge_schedule_lag_seconds               histogram of send time − intended time
//	surge_time_to_first_token_seconds        histogram of TTFT of successful requests
//	surge_inter_token_latency_seconds        histogram of every gap between token events
//	surge_e2e_request_latency_seconds        histogram of E2E of successful requests
//	surge_prompt_tokens_total                prompt tokens of successful requests (the server's count, else surge's, else the trace's)
//	surge_generation_tokens_total            output tokens of successful requests (the server's, else token events)
//
// The histograms have classic buckets and native (sparse) buckets for a
// scraper that asks for them.
package exporter

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"surge/metrics"
	"surge/trace"
)

// Metrics are one run's live metrics. Write is safe for concurrent use.
type Metrics struct {
	reg                 *prometheus.Registry
	requests            *prometheus.CounterVec
	lag, ttft, itl, e2e *prometheus.HistogramVec
	prompt, generated   *prometheus.CounterVec
}

// latencyBuckets are the classic buckets of the latency histograms, in
// seconds: 1 ms to 10 minutes.
var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 600}

// New makes the metrics of a run; inFlight reports the requests in
// flight when scraped, and shard (empty: none) labels every series.
func New(inFlight func() float64, shard string) *Metrics {
	constLabels := prometheus.Labels{}
	if shard != "" {
		constLabels["shard"] = shard
	}
	by := []string{"client", "model"}
	hist := func(name, help string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: name, Help: help, ConstLabels: constLabels, Buckets: latencyBuckets,
			NativeHistogramBucketFactor: 1.1, NativeHistogramMaxBucketNumber: 160, NativeHistogramMinResetDuration: time.Hour,
		}, by)
	}
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "surge_requests_total",
			Help: "Requests finished, by outcome: ok or the error class.", ConstLabels: constLabels}, append(by, "outcome")),
		lag:  hist("surge_schedule_lag_seconds", "Time from a request's intended send to its send."),
		ttft: hist("surge_time_to_first_token_seconds", "Time to first token of successful requests, from the send."),
		itl:  hist("surge_inter_token_latency_seconds", "Gaps between successive token events of successful requests."),
		e2e:  hist("surge_e2e_request_latency_seconds", "End-to-end latency of successful requests, from the send."),
		prompt: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "surge_prompt_tokens_total",
			Help: "Prompt tokens of successful requests.", ConstLabels: constLabels}, by),
		generated: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "surge_generation_tokens_total",
			Help: "Output tokens of successful requests.", ConstLabels: constLabels}, by),
	}
	m.reg.MustRegister(m.requests, m.lag, m.ttft, m.itl, m.e2e, m.prompt, m.generated,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "surge_requests_in_flight",
			Help: "Requests sent and not finished.", ConstLabels: constLabels}, inFlight))
	return m
}

// Write observes a finished request; it implements the driver's Sink and
// never fails. Warmup, faulted and dropped requests count under their
// outcome and nowhere else.
func (m *Metrics) Write(r *trace.Record) error {
	outcome := r.ErrorClass
	switch {
	case !metrics.Healthy.Has(r):
		outcome = "fault"
	case outcome == "":
		outcome = "ok"
	}
	m.requests.WithLabelValues(r.Client, r.Model, outcome).Inc()
	if !metrics.Sent.Has(r) {
		return nil
	}
	m.lag.WithLabelValues(r.Client, r.Model).Observe(seconds(max(metrics.Lag(r), 0)))
	if !metrics.Succeeded.Has(r) {
		return nil
	}
	if r.TTFTUS > 0 {
		m.ttft.WithLabelValues(r.Client, r.Model).Observe(seconds(r.TTFTUS))
	}
	itl := m.itl.WithLabelValues(r.Client, r.Model)
	for g, n := range r.GapCounts() {
		for range n {
			itl.Observe(seconds(g))
		}
	}
	m.e2e.WithLabelValues(r.Client, r.Model).Observe(seconds(r.E2EUS))
	m.prompt.WithLabelValues(r.Client, r.Model).Add(float64(metrics.InputTokens(r)))
	m.generated.WithLabelValues(r.Client, r.Model).Add(float64(metrics.OutputTokens(r)))
	return nil
}

// Handler serves the metrics in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func seconds(us int64) float64 { return float64(us) / 1e6 }
