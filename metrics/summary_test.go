package metrics

import (
	"strings"
	"testing"

	"surge/trace"
)

func hasWarning(s *Summary, kind, substr string) bool {
	for _, w := range s.Warnings {
		if w.Kind == kind && strings.Contains(w.Text, substr) {
			return true
		}
	}
	return false
}

func TestInterrupted(t *testing.T) {
	t.Parallel()
	r := okRec("c", 0, 1000, 5000)
	complete := records(nil, r)
	interrupted := records(nil, r)
	interrupted.End.Interrupted, interrupted.End.Scheduled = true, 10
	died := records(nil, r)
	died.End = nil
	short := records(nil, r)
	short.End.Sent = 2
	tests := []struct {
		name        string
		rs          *trace.Records
		interrupted bool
		warning     string
		reason      string
	}{
		{"complete", complete, false, "", "an end line without the flag"},
		{"interrupted", interrupted, true, "interrupted after 1 of 10", "the end line says so"},
		{"died", died, true, "no end line", "a killed run writes no end line"},
		{"short file", short, false, "end line counts 2 sent", "records lost from the file"},
	}
	for _, tt := range tests {
		s := Summarize(tt.rs, Options{})
		if s.Interrupted != tt.interrupted {
			t.Errorf("%s: interrupted %v, want %v (%s)", tt.name, s.Interrupted, tt.interrupted, tt.reason)
		}
		if tt.warning != "" && !hasWarning(s, WarnRun, tt.warning) {
			t.Errorf("%s: warnings %v, want one with %q", tt.name, s.Warnings, tt.warning)
		}
		if tt.warning == "" && hasWarning(s, WarnRun, "") {
			t.Errorf("%s: unexpected warnings %v", tt.name, s.Warnings)
		}
	}
	if d := Summarize(died, Options{}).DurationUS; d != 6000 {
		t.Errorf("duration without end line %d, want the last completion 6000", d)
	}
}

func TestSampleAndLagWarnings(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i := range 200 {
		r := okRec("c", int64(i)*1000, 1000, 5000)
		r.SentUS += 50_000 // 51 ms behind schedule
		recs = append(recs, r)
	}
	s := Summarize(records(nil, recs...), Options{})
	tests := []struct {
		kind, text string
		want       bool
		reason     string
	}{
		{WarnSample, "p99 of ttft n=200", true, "p99 needs n ≥ 368"},
		{WarnSample, "p99.9 of ttft n=200", true, "p99.9 needs n ≥ 3688"},
		{WarnSample, "p95 of", false, "p95 needs only 72"},
		{WarnSample, "itl", false, "pooled ITL has no interval by design, not for want of samples"},
		{WarnLag, "p99 schedule lag 51 ms", true, "51 ms exceeds the 10 ms default"},
	}
	for _, tt := range tests {
		if got := hasWarning(s, tt.kind, tt.text); got != tt.want {
			t.Errorf("warning %s %q present %v, want %v (%s): %v", tt.kind, tt.text, got, tt.want, tt.reason, s.Warnings)
		}
	}
	if s2 := Summarize(records(nil, recs...), Options{LagWarnUS: 60_000}); hasWarning(s2, WarnLag, "") {
		t.Error("lag warning despite a 60 ms threshold")
	}
}
