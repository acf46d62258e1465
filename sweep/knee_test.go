package sweep

import (
	"math"
	"testing"
)

func TestKneedle(t *testing.T) {
	t.Parallel()
	// brokenLine samples y = a·x up to the break at xb, then a steeper
	// slope b: the knee is the sample at the break.
	brokenLine := func(n int, xb, a, b float64) (x, y []float64) {
		for i := range n {
			xi := float64(i) / float64(n-1)
			yi := a * xi
			if xi > xb {
				yi = a*xb + b*(xi-xb)
			}
			x, y = append(x, xi), append(y, yi)
		}
		return x, y
	}
	tests := []struct {
		name string
		x, y []float64
		want int
	}{
		{"break at 0.6 of 11 points", nil, nil, 6},
		{"break at 0.3 of 11 points", nil, nil, 3},
		{"break at 0.8 of 21 points", nil, nil, 16},
		{"straight line: no bend, no knee", []float64{1, 2, 3, 4, 5}, []float64{10, 20, 30, 40, 50}, -1},
		{"a jump at the last point confirms the point before it", []float64{1, 2, 3, 4, 5}, []float64{10, 10, 10, 10, 50}, 3},
		{"gentle convexity is below the sensitivity: no knee", []float64{1, 2, 3, 4, 5}, []float64{10, 11, 12, 13, 14.5}, -1},
		{"two points are no curve", []float64{1, 2}, []float64{1, 9}, -1},
		{"flat latency has no knee", []float64{1, 2, 3, 4}, []float64{5, 5, 5, 5}, -1},
	}
	tests[0].x, tests[0].y = brokenLine(11, 0.6, 0.1, 5)
	tests[1].x, tests[1].y = brokenLine(11, 0.3, 0.2, 4)
	tests[2].x, tests[2].y = brokenLine(21, 0.8, 0.05, 10)
	for _, tt := range tests {
		if got := Kneedle(tt.x, tt.y, 1); got != tt.want {
			t.Errorf("%s: knee at %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestKneedleQueue checks the knee of an M/M/1 delay curve, latency
// 1/(1 − ρ) against throughput ρ sampled up to ρ = 0.95: the maximum of
// ρ/0.95 − (1/(1−ρ) − 1)/19 is at (1 − ρ)² = 0.05, ρ ≈ 0.776.
func TestKneedleQueue(t *testing.T) {
	t.Parallel()
	var x, y []float64
	for rho := 0.05; rho < 0.951; rho += 0.01 {
		x, y = append(x, rho), append(y, 1/(1-rho))
	}
	i := Kneedle(x, y, 1)
	if i < 0 || math.Abs(x[i]-(1-math.Sqrt(0.05))) > 0.011 {
		t.Fatalf("knee at index %d, want ρ ≈ %.3f", i, 1-math.Sqrt(0.05))
	}
}

// TestSweepKnee checks the knee of a sweep's points, found on log
// latency: past saturation achieved throughput falls back while p99
// latency explodes by orders of magnitude; on a linear scale the
// explosion would flatten everything before it (the knee would land on
// the 400 ms point, 5× the latency before it), on a log scale the knee is
// the last point before the rise.
func TestSweepKnee(t *testing.T) {
	t.Parallel()
	tput := []float64{2, 4, 6, 8, 9.5, 9.8, 9.6, 9.4}
	p99 := []float64{50, 52, 55, 60, 80, 400, 3000, 9000}
	var pts []Point
	for i := range tput {
		pts = append(pts, Point{Load: float64(2 * (i + 1)), Throughput: tput[i], Measured: 500, TTFT: Quantiles{P99: p99[i] * 1000}})
	}
	k := knee(pts, "ttft.p99", func(p *Point) float64 { return p.TTFT.P99 })
	if k == nil || k.Index != 4 || k.Throughput != 9.5 || k.LatencyUS != 80_000 {
		t.Fatalf("knee %+v, want index 4 at 9.5 req/s, 80 ms", k)
	}
	if got := Kneedle(tput, p99, 1); got != 5 {
		t.Errorf("linear Kneedle at %d; this test's premise wants 5", got)
	}
}
