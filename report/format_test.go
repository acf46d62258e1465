package report

import (
	"testing"

	"surge/metrics"
)

func TestNum(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v      float64
		want   string
		reason string
	}{
		{0, "0", "zero has no magnitude"},
		{0.2134, "0.213", "three significant digits"},
		{0.99996, "1.00", "rounding up to the next decade takes its decimals"},
		{21.34, "21.3", "three significant digits"},
		{99.96, "100", "rounds into three integer digits"},
		{213.4, "213", "integers keep every digit"},
		{21345.6, "21,346", "thousands grouped, no decimals"},
		{1234567, "1,234,567", "two separators"},
		{-1234.5, "-1,234", "sign kept outside the grouping; -1234.5 rounds to even"},
	}
	for _, tt := range tests {
		if got := num(tt.v); got != tt.want {
			t.Errorf("num(%v) = %q, want %q (%s)", tt.v, got, tt.want, tt.reason)
		}
	}
}

func TestSpread(t *testing.T) {
	t.Parallel()
	q := func(v, lo, hi float64) metrics.Percentile {
		return metrics.Percentile{Value: v, CI: &metrics.Interval{Lo: lo, Hi: hi}}
	}
	tests := []struct {
		q      metrics.Percentile
		want   string
		reason string
	}{
		{q(100, 98, 104), "±4%", "the larger side, like benchstat"},
		{q(100, 90, 101), "±10%", "the larger side is below"},
		{q(1000, 999, 1002), "±0.2%", "under 1% keeps a decimal rather than claiming ±0%"},
		{q(5, 5, 5), "±0%", "a degenerate interval"},
		{q(100, 50, 200), "±100%", "exactly the value's size is still a percentage"},
		{q(0, 0, 2770), "[0, 2.77]", "relative to zero is meaningless: the interval in ms, never a unitless ±"},
		{q(1, 0, 8919), "[0, 8.92]", "not ±891,800%: the interval in ms"},
		{q(1000, 0, 2500), "[0, 2.50]", "±150% is over 100%: the interval in ms"},
	}
	for _, tt := range tests {
		if got := spread(tt.q); got != tt.want {
			t.Errorf("spread(%v in [%v, %v]) = %q, want %q (%s)", tt.q.Value, tt.q.CI.Lo, tt.q.CI.Hi, got, tt.want, tt.reason)
		}
	}
}

func TestShortHashAndFootnotes(t *testing.T) {
	t.Parallel()
	if got := shortHash("sha256:0123456789abcdef"); got != "0123456789ab" {
		t.Errorf("shortHash = %q, want the first 12 hex digits", got)
	}
	if got := shortHash("abc"); got != "abc" {
		t.Errorf("shortHash of a short bare hash = %q, want it whole", got)
	}
	var f footnotes
	marks := []string{f.ref("a"), f.ref("b"), f.ref("a")}
	for range 9 {
		f.ref(string(rune('c' + len(f.texts))))
	}
	if marks[0] != "¹" || marks[1] != "²" || marks[2] != "¹" || f.ref("new") != "¹²" {
		t.Errorf("marks %v and %q; want ¹ ² ¹, repeats reuse their number, and the 12th is ¹²", marks, f.ref("new"))
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	if got := clip("héllo world", 6); got != "héllo…" {
		t.Errorf("clip = %q, want 6 runes ending in …", got)
	}
	if got := clip("short", 60); got != "short" {
		t.Errorf("clip of a short message = %q, want it whole", got)
	}
}
