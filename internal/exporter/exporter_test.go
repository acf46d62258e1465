package exporter

import (
	"net/http/httptest"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"surge/trace"
)

// TestMetrics writes records and scrapes the handler: the exposition
// parses with prometheus/common, and the counters and histogram counts
// agree with the records.
func TestMetrics(t *testing.T) {
	t.Parallel()
	m := New(func() float64 { return 3 }, "1/4")
	recs := []trace.Record{
		{Client: "a", Model: "m", SentUS: 10, IntendedUS: 0, TTFTUS: 20_000, E2EUS: 100_000, ITLUS: []int64{1000, 2000}, ServerInputTokens: 50, ServerOutputTokens: 3},
		{Client: "a", Model: "m", SentUS: 0, TTFTUS: 30_000, E2EUS: 90_000, ITLUS: []int64{3000}, ClientInputTokens: 40, Chunks: 2},
		{Client: "a", Model: "m", ErrorClass: trace.ErrHTTP, Status: 503},
		{Client: "b", Model: "m", ErrorClass: trace.ErrDropped},
		// Warmup and faulted requests count under their outcome only, as
		// the report leaves them out of every latency.
		{Client: "c", Model: "m", Warmup: true, SentUS: 5, TTFTUS: 10_000, E2EUS: 20_000, ITLUS: []int64{500}, Chunks: 2},
		{Client: "c", Model: "m", Fault: "empty", SentUS: 5, TTFTUS: 10_000, E2EUS: 20_000, Chunks: 1},
	}
	for i := range recs {
		if err := m.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	value := func(name string, labels map[string]string) float64 {
		for _, mt := range fams[name].GetMetric() {
			ok := true
			for k, v := range labels {
				found := false
				for _, lp := range mt.GetLabel() {
					found = found || (lp.GetName() == k && lp.GetValue() == v)
				}
				ok = ok && found
			}
			if !ok {
				continue
			}
			switch {
			case mt.Counter != nil:
				return mt.Counter.GetValue()
			case mt.Gauge != nil:
				return mt.Gauge.GetValue()
			case mt.Histogram != nil:
				return float64(mt.Histogram.GetSampleCount())
			}
		}
		return -1
	}
	for _, tt := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"surge_requests_total", map[string]string{"client": "a", "outcome": "ok", "shard": "1/4"}, 2},
		{"surge_requests_total", map[string]string{"client": "a", "outcome": "http"}, 1},
		{"surge_requests_total", map[string]string{"client": "b", "outcome": "dropped"}, 1},
		{"surge_requests_in_flight", nil, 3},
		{"surge_time_to_first_token_seconds", map[string]string{"client": "a"}, 2},
		{"surge_inter_token_latency_seconds", map[string]string{"client": "a"}, 3},
		{"surge_schedule_lag_seconds", map[string]string{"client": "a"}, 3},
		{"surge_prompt_tokens_total", map[string]string{"client": "a"}, 90},
		{"surge_generation_tokens_total", map[string]string{"client": "a"}, 5},
		{"surge_requests_total", map[string]string{"client": "c", "outcome": "ok"}, 1},
		{"surge_requests_total", map[string]string{"client": "c", "outcome": "fault"}, 1},
		{"surge_time_to_first_token_seconds", map[string]string{"client": "c"}, -1},
		{"surge_schedule_lag_seconds", map[string]string{"client": "c"}, -1},
	} {
		if got := value(tt.name, tt.labels); got != tt.want {
			t.Errorf("%s%v = %g, want %g", tt.name, tt.labels, got, tt.want)
		}
	}
}
