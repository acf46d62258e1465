package metrics

import (
	"strings"
	"testing"

	"surge/trace"
)

// healthyRun is a salted, finished run of n successful requests sent on
// schedule.
func healthyRun(n int) *trace.Records {
	recs := make([]trace.Record, n)
	for i := range recs {
		recs[i] = okRec("c", int64(i)*10_000, 20_000, 80_000)
		recs[i].SentUS = recs[i].IntendedUS + 100
	}
	rs := records(nil, recs...)
	rs.Header.Salt = "[surge 0011aabb]\n"
	return rs
}

func TestMeasurement(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*trace.Records)
		failed string // the check that fails; "" for a valid measurement
		reason string // in the failed check's detail
	}{
		{"valid", func(*trace.Records) {}, "", ""},
		{"no end line", func(rs *trace.Records) { rs.End = nil }, CheckRun, "died"},
		{"interrupted", func(rs *trace.Records) { rs.End.Interrupted = true }, CheckRun, "interrupted"},
		{"end line disagrees", func(rs *trace.Records) { rs.End.Sent++ }, CheckRun, "end line counts"},
		{"lag", func(rs *trace.Records) {
			for i := range rs.Records {
				rs.Records[i].SentUS = rs.Records[i].IntendedUS + 50_000
			}
		}, CheckClient, "behind schedule"},
		{"cpu-bound client", func(rs *trace.Records) {
			rs.End.ClientCPUs, rs.End.ClientCPUUS = 2, 19e6 // 1.9 of 2 cores over 10 s
		}, CheckClient, "CPU-bound"},
		{"busy but not bound", func(rs *trace.Records) {
			rs.End.ClientCPUs, rs.End.ClientCPUUS = 2, 17e6
		}, "", ""},
		{"prompt lengths", func(rs *trace.Records) { rs.Records[3].ClientInputTokens = 99 }, CheckTokens, "not the requested length"},
		{"server overcounts output", func(rs *trace.Records) { rs.Records[3].ServerOutputTokens = 12 }, CheckTokens, "more output tokens than max_tokens"},
		{"server undercounts streamed", func(rs *trace.Records) {
			for i := range rs.Records {
				rs.Records[i].ServerOutputTokens = 5
			}
		}, CheckTokens, "more token events"},
		{"another tokenizer", func(rs *trace.Records) {
			for i := range rs.Records {
				rs.Records[i].ServerInputTokens = 90 + i%7
			}
		}, CheckTokens, "another tokenizer"},
		{"template offset is explained", func(rs *trace.Records) {
			for i := range rs.Records {
				rs.Records[i].ServerInputTokens = 110
			}
		}, "", ""},
		{"unsalted", func(rs *trace.Records) { rs.Header.Salt = "" }, CheckCache, "not salted"},
		{"unsalted in virtual time", func(rs *trace.Records) {
			rs.Header.Salt, rs.Header.Target = "", VirtualTargetScheme+"m@gx1"
		}, "", ""},
		{"cache hit rate above implied", func(rs *trace.Records) {
			rs.Header.PrefixReuse = &trace.Reuse{BlockTokens: 16, Prompt: 100, Cached: 10}
			for i := range rs.Records {
				rs.Records[i].CachedTokens = 60
			}
		}, CheckCache, "had not sent before"},
		{"cache hit rate below implied", func(rs *trace.Records) {
			rs.Header.PrefixReuse = &trace.Reuse{BlockTokens: 16, Prompt: 100, Cached: 60}
			for i := range rs.Records {
				rs.Records[i].CachedTokens = 10
			}
		}, CheckCache, "evicted"},
		{"cache within tolerance", func(rs *trace.Records) {
			rs.Header.PrefixReuse = &trace.Reuse{BlockTokens: 16, Prompt: 100, Cached: 50}
			for i := range rs.Records {
				rs.Records[i].CachedTokens = 45
			}
		}, "", ""},
		{"errors", func(rs *trace.Records) {
			rs.Records[0] = failRec("c", 0, trace.ErrHTTP, 500)
			rs.Records[1] = failRec("c", 10_000, trace.ErrHTTP, 500)
			rs.Records[2] = failRec("c", 20_000, trace.ErrTimeout, 0)
		}, CheckErrors, "failed"},
		{"one error in 200 is fine", func(rs *trace.Records) {
			rs.Records[0] = failRec("c", 0, trace.ErrHTTP, 500)
		}, "", ""},
		{"too few for the SLO", func(rs *trace.Records) {
			rs.Header.SLO = []trace.SLO{{Metric: "ttft", Percentile: 99.9, BoundUS: 1e6}}
		}, CheckSamples, "ttft p99.9 (200 measured, "},
		{"enough for the SLO", func(rs *trace.Records) {
			rs.Header.SLO = []trace.SLO{{Metric: "ttft", Percentile: 50, BoundUS: 1e6}}
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := healthyRun(200)
			tt.edit(rs)
			m := Summarize(rs, Options{}).Measurement
			if m == nil {
				t.Fatal("no measurement verdict")
			}
			var failed []Check
			for _, c := range m.Checks {
				if !c.OK {
					failed = append(failed, c)
				}
			}
			if tt.failed == "" {
				if !m.Valid() || len(failed) > 0 || m.Line() != "measurement: valid" {
					t.Fatalf("want valid, got %q (%+v)", m.Line(), failed)
				}
				return
			}
			if m.Valid() || len(failed) != 1 || failed[0].Name != tt.failed || !strings.Contains(failed[0].Detail, tt.reason) {
				t.Fatalf("want only %s failing with %q, got %+v", tt.failed, tt.reason, failed)
			}
			if line := m.Line(); !strings.HasPrefix(line, "measurement: questionable — ") || !strings.Contains(line, tt.reason) {
				t.Errorf("line %q does not give the reason %q", line, tt.reason)
			}
		})
	}
}

func TestMeasurementAdd(t *testing.T) {
	m := Summarize(healthyRun(50), Options{}).Measurement
	if !m.Valid() {
		t.Fatalf("setup: %s", m.Line())
	}
	m.Add(fail(CheckEngine, "engine and client TTFT differ by 9 ms"))
	if m.Valid() || !strings.Contains(m.Line(), "engine and client") {
		t.Fatalf("after a failed engine check: %s", m.Line())
	}
	m.Add(pass(CheckEngine, "agree"))
	if !m.Valid() {
		t.Fatalf("a replaced check still counts: %s", m.Line())
	}
}
