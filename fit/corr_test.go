package fit

import (
	"math"
	"testing"
)

func TestCorrelation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason            string
		x, y              []float64
		spearman, pearson float64
	}{
		{"a monotone but curved relation: ranks agree fully, values do not",
			[]float64{1, 2, 3, 4, 5}, []float64{1, 8, 27, 64, 1000}, 1, 0.7437},
		{"reversed order", []float64{1, 2, 3}, []float64{3, 2, 1}, -1, -1},
		{"ties share their mean rank", []float64{1, 1, 2, 2}, []float64{1, 2, 3, 4}, 0.8944, 0.8944},
	}
	for _, tt := range tests {
		s, p := Spearman(tt.x, tt.y), Pearson(tt.x, tt.y)
		if math.Abs(s-tt.spearman) > 1e-4 || math.Abs(p-tt.pearson) > 1e-4 {
			t.Errorf("%s: Spearman %.4f Pearson %.4f, want %.4f and %.4f", tt.reason, s, p, tt.spearman, tt.pearson)
		}
	}
	if !math.IsNaN(Spearman([]float64{1}, []float64{1, 2})) {
		t.Error("Spearman of unequal lengths should be NaN")
	}
}

func TestRanks(t *testing.T) {
	t.Parallel()
	got := ranks([]float64{30, 10, 20, 10})
	want := []float64{4, 1.5, 3, 1.5}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ranks = %v, want %v", got, want)
		}
	}
}

func TestLengths(t *testing.T) {
	t.Parallel()
	in := draw(t, "lognormal", map[string]float64{"mu": 7, "sigma": 1}, 4000, 11)
	out := draw(t, "gamma", map[string]float64{"shape": 2, "scale": 100}, 4000, 12)
	l, err := Lengths(in, out)
	if err != nil {
		t.Fatal(err)
	}
	if l.Input.Best.Family != FamilyLogNormal || l.Input.Grade != Good {
		t.Errorf("input best %v (%v), want a good lognormal", l.Input.Best, l.Input.Grade)
	}
	// Independent draws: the correlations are noise, ± 3/√n.
	if math.Abs(l.Spearman) > 0.05 || math.Abs(l.Pearson) > 0.05 {
		t.Errorf("Spearman %g Pearson %g for independent samples, want ≈ 0", l.Spearman, l.Pearson)
	}
	if l.Input.Min != minOf(in) || l.Output.Max != maxOf(out) {
		t.Errorf("range not recorded: input min %g, output max %g", l.Input.Min, l.Output.Max)
	}
	if _, err := Lengths(in, out[1:]); err == nil {
		t.Error("Lengths of unequal columns: got no error")
	}
}

func minOf(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

func TestGroups(t *testing.T) {
	t.Parallel()
	g := Groups([]string{"b", "a", "b", "c", "a"})
	want := []Group{{"b", []int{0, 2}}, {"a", []int{1, 4}}, {"c", []int{3}}}
	if len(g) != len(want) {
		t.Fatalf("got %d groups, want %d", len(g), len(want))
	}
	for i := range want {
		if g[i].Key != want[i].Key || len(g[i].Index) != len(want[i].Index) {
			t.Errorf("group %d = %+v, want %+v (keys in first-seen order)", i, g[i], want[i])
		}
	}
	if got := Pick([]float64{10, 11, 12, 13, 14}, g[1].Index); got[0] != 11 || got[1] != 14 {
		t.Errorf("Pick = %v, want [11 14]", got)
	}
}
