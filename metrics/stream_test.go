package metrics

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

// wholeRec is a successful request answered whole (not streamed): its one
// "first token" is its last byte.
func wholeRec(at, e2e int64) trace.Record {
	r := okRec("a", at, e2e, e2e)
	r.ITLUS, r.Chunks, r.NotStreamed = nil, 1, true
	return r
}

func TestNotStreamed(t *testing.T) {
	t.Parallel()
	slos := []trace.SLO{{Metric: "ttft", Percentile: 50, BoundUS: 1}, {Metric: "e2e", Percentile: 50, BoundUS: 1e9}}
	s := Summarize(records(slos, wholeRec(0, 5000), wholeRec(1000, 6000)), Options{})
	l := &s.All.Latency
	for _, m := range []*Metric{&l.TTFT, &l.TTFO, &l.ITL, &l.TPOT, &l.TTFTLag, &l.TTFOLag} {
		if m.N != 0 || m.NotApplicable != NotStreamedReason {
			t.Errorf("%s: n %d, not applicable %q; want 0 and %q (TTFT equal to E2E is no TTFT)", m.Name, m.N, m.NotApplicable, NotStreamedReason)
		}
	}
	if l.E2E.N != 2 || l.E2E.NotApplicable != "" {
		t.Errorf("e2e: n %d, not applicable %q; want 2 values", l.E2E.N, l.E2E.NotApplicable)
	}
	ttft, e2e := s.All.SLOs[0], s.All.SLOs[1]
	if ttft.Verdict != VerdictNotJudged || ttft.Note == "" || ttft.Pass {
		t.Errorf("ttft SLO = %+v, want not judged with a note", ttft)
	}
	if e2e.Verdict == VerdictNotJudged || e2e.Met != 2 {
		t.Errorf("e2e SLO = %+v, want judged and met by both", e2e)
	}
	g := s.All.Goodput
	if g == nil || g.Requests != 2 || !slices.Equal(g.NotJudged, []string{"ttft p50"}) {
		t.Errorf("goodput = %+v, want 2 requests over e2e alone, ttft p50 not judged", g)
	}
}

// TestPartlyStreamed checks that a request not streamed leaves the token
// timings of the streamed ones alone and is not judged on them.
func TestPartlyStreamed(t *testing.T) {
	t.Parallel()
	slos := []trace.SLO{{Metric: "ttft", Percentile: 50, BoundUS: 2000}}
	s := Summarize(records(slos, okRec("a", 0, 1000, 5000), wholeRec(1000, 6000)), Options{})
	l := &s.All.Latency
	if l.TTFT.N != 1 || l.TTFT.Undefined != 1 || l.TTFT.NotApplicable != "" || l.TPOT.N != 1 {
		t.Errorf("ttft n %d undefined %d (%q), tpot n %d; want the streamed request only", l.TTFT.N, l.TTFT.Undefined, l.TTFT.NotApplicable, l.TPOT.N)
	}
	if c := s.All.SLOs[0]; c.Verdict == VerdictNotJudged || c.Met != 2 {
		t.Errorf("ttft SLO = %+v, want judged, the whole answer not held against it", c)
	}
}

func TestNotApplicableJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Metric{Name: "ttft", Unit: UnitUS, Undefined: 2, NotApplicable: NotStreamedReason})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"mean", "min", "max", "percentiles"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s present in %s: a metric that does not apply has no %s", k, b, k)
		}
	}
	if got["not_applicable"] != NotStreamedReason {
		t.Errorf("not_applicable missing from %s", b)
	}
	b, _ = json.Marshal(Metric{Name: "e2e", N: 1, Mean: 5})
	if !strings.Contains(string(b), `"mean":5`) {
		t.Errorf("an applicable metric lost its mean: %s", b)
	}
}

// TestNotStreamedMeasurement checks that the measurement verdict does not
// call every SLO judged when one could not be.
func TestNotStreamedMeasurement(t *testing.T) {
	t.Parallel()
	slos := []trace.SLO{{Metric: "ttft", Percentile: 50, BoundUS: 1e6}}
	s := Summarize(records(slos, wholeRec(0, 5000), wholeRec(1000, 6000)), Options{})
	for _, c := range s.Measurement.Checks {
		if c.Name == CheckSamples && (c.OK || !strings.Contains(c.Detail, "ttft p50")) {
			t.Errorf("samples check %+v: want it failed, naming ttft p50", c)
		}
	}
}
