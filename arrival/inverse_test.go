package arrival

import (
	"math"
	"testing"
	"time"
)

// TestInverseCumulative checks that Λ⁻¹ inverts Λ on a grid of offsets: where
// λ > 0, Λ⁻¹(Λ(t)) = t (to the nanosecond of rounding); on a flat zero-rate
// stretch it returns the stretch's start, the earliest offset with that mass.
func TestInverseCumulative(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		c      Config
		until  time.Duration
		flat   [][2]time.Duration // zero-rate stretches [from, to)
		reason string
	}{
		{"flat", flat, time.Hour, nil, "linear Λ"},
		{"stepped", stepped, 2 * time.Minute, [][2]time.Duration{{40 * time.Second, 50 * time.Second}}, "quadratic pieces and a zero stretch"},
		{"ramp down", rampDown, time.Minute, [][2]time.Duration{{30 * time.Second, time.Minute}}, "mass ends at 30 s"},
		{"daily", daily, 25 * time.Hour, nil, "Newton on the sine integral, far out"},
		{"combined", combined, 20 * time.Minute, nil, "Newton on linear·sine pieces with spikes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for k := 0; k <= 997; k++ {
				at := tt.until * time.Duration(k) / 997
				want := at
				for _, f := range tt.flat {
					if at >= f[0] && at <= f[1] {
						want = f[0]
					}
				}
				m := tt.c.Cumulative(at)
				got, ok := tt.c.InverseCumulative(m)
				if !ok || (got-want).Abs() > 2 {
					t.Fatalf("InverseCumulative(Cumulative(%v) = %v) = %v, %v; want %v (%s)", at, m, got, ok, want, tt.reason)
				}
			}
		})
	}
}

// TestInvertPrecision checks Λ(Λ⁻¹(y)) = y in float seconds, with the hint
// the stream passes (non-decreasing y) and without it.
func TestInvertPrecision(t *testing.T) {
	t.Parallel()
	for _, c := range []Config{flat, stepped, rampDown, daily, combined} {
		in := c.intensity()
		top := min(in.total, 1e5)
		hint := 0
		for k := 1; k <= 5000; k++ {
			y := top * float64(k) / 5000
			for _, h := range []int{hint, 0} {
				x, i, ok := in.invert(y, h)
				if !ok {
					t.Fatalf("%+v: invert(%v) out of mass %v", c.Curve, y, in.total)
				}
				m, _ := in.eval(i, x-in.pieces[i].start)
				if got := in.pieces[i].cum + m; math.Abs(got-y) > 1e-9*max(1, y) {
					t.Fatalf("%+v: Λ(Λ⁻¹(%v)) = %v", c.Curve, y, got)
				}
				hint = i
			}
		}
	}
}

func TestInverseBeyondMass(t *testing.T) {
	t.Parallel()
	tests := []struct {
		c      Config
		m      float64
		want   time.Duration
		ok     bool
		reason string
	}{
		{rampDown, 300, 30 * time.Second, true, "the whole mass is reached when the rate hits 0"},
		{rampDown, 300.001, 0, false, "more than the ramp's mass"},
		{flat, 0, 0, true, "no mass needs no time"},
		{flat, 1e9, 1e8 * time.Second, true, "far out on a flat curve"},
		{flat, 1e12, 0, false, "beyond what a time.Duration holds"},
	}
	for _, tt := range tests {
		got, ok := tt.c.InverseCumulative(tt.m)
		if ok != tt.ok || (got-tt.want).Abs() > 2 {
			t.Errorf("InverseCumulative(%v) = %v, %v; want %v, %v (%s)", tt.m, got, ok, tt.want, tt.ok, tt.reason)
		}
	}
}
