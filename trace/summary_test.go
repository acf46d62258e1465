package trace

import (
	"bytes"
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	t.Parallel()
	h := Header{Clients: []ClientInfo{{Name: "a"}, {Name: "b", Concurrency: 2}}}
	var ss []*Session
	// Client b is closed loop: no schedule, so it adds lengths but no rate.
	ss = append(ss, &Session{Client: "b", Turns: []Turn{{InputTokens: 1000, OutputTokens: 1}}})
	// Client a: starts at 0, 1, 3, 4, 6 s: gaps 1 2 1 2 (mean 1.5, sd 0.5).
	for i, at := range []int64{0, 1, 3, 4, 6} {
		ss = append(ss, &Session{Client: "a", Index: i, AtUS: at * 1e6, Turns: []Turn{{InputTokens: 10 * (i + 1), OutputTokens: i + 1}}})
	}
	data, hash := writeTrace(t, h, ss)
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Summarize(r)
	if err != nil {
		t.Fatal(err)
	}
	if sum.WorkloadHash != hash {
		t.Errorf("workload hash %s, want %s", sum.WorkloadHash, hash)
	}
	a, b := sum.Clients[0], sum.Clients[1]
	checks := []struct {
		name      string
		got, want float64
	}{
		{"a sessions", float64(a.Sessions), 5},
		{"a span", a.Span, 6},
		{"a rate (n-1)/span", a.Rate, 4.0 / 6},
		{"a gap cv", a.CV, 0.5 / 1.5},
		{"a input p50 (nearest rank)", a.InputTokens.P50, 30},
		{"a input p10", a.InputTokens.P10, 10},
		{"a input max", a.InputTokens.Max, 50},
		{"a input mean", a.InputTokens.Mean, 30},
		{"a total output", float64(a.TotalOutput), 15},
		{"b sessions", float64(b.Sessions), 1},
		{"b rate (closed loop has none)", b.Rate, 0},
		{"all input max includes b", sum.All.InputTokens.Max, 1000},
		{"all rate is open-loop only", sum.All.Rate, 4.0 / 6},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !b.Closed {
		t.Error("client b not marked closed loop")
	}
	edges, counts := sum.All.Histogram(true, 4)
	total := 0
	for _, n := range counts {
		total += n
	}
	if len(edges) != 5 || total != 6 || math.Abs(edges[0]-10) > 1e-9 || math.Abs(edges[4]-1000) > 1e-6 {
		t.Errorf("histogram edges %v counts %v", edges, counts)
	}
}
