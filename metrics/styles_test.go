package metrics

import (
	"testing"

	"surge/trace"
)

// TestPerStyle checks that Options.PerStyle summarises each prompt style
// of the records in name order, and nothing when there is only one.
func TestPerStyle(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i := range 30 {
		r := okRec("a", int64(i)*100_000, 50_000, 200_000)
		r.Style = "code"
		if i%3 == 0 {
			r.Style, r.TTFTUS, r.TTFOUS = "analysis", 150_000, 150_000
		}
		recs = append(recs, r)
	}
	s := Summarize(records(nil, recs...), Options{PerStyle: true})
	if len(s.Styles) != 2 || s.Styles[0].Style != "analysis" || s.Styles[1].Style != "code" {
		t.Fatalf("styles %+v, want analysis then code", s.Styles)
	}
	if s.Styles[0].OK != 10 || s.Styles[1].OK != 20 {
		t.Errorf("ok counts %d and %d, want 10 and 20", s.Styles[0].OK, s.Styles[1].OK)
	}
	a, _ := s.Styles[0].Latency.TTFT.At(50)
	c, _ := s.Styles[1].Latency.TTFT.At(50)
	if a.Value != 150_000 || c.Value != 50_000 {
		t.Errorf("TTFT p50 %v (analysis) and %v (code), want 150000 and 50000", a.Value, c.Value)
	}
	if s.Styles[0].Client != "" {
		t.Errorf("a style scope names client %q", s.Styles[0].Client)
	}
	for i := range recs {
		recs[i].Style = "code"
	}
	if s := Summarize(records(nil, recs...), Options{PerStyle: true}); s.Styles != nil {
		t.Errorf("one style gave style scopes %+v", s.Styles)
	}
}
