package arrival

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestGrid checks Config.Grid on 20,000 Poisson arrivals at 3.4/s on a
// 3-second grid: every offset is a whole number of slots, the mean rate is
// kept, slot counts stay Poisson (index of dispersion near 1) and the gap
// CV is that of a slotted clock: with λg arrivals a slot, nearly all gaps
// are 0 or one slot, so CV² ≈ λg − 1 and CV ≈ 3.
func TestGrid(t *testing.T) {
	t.Parallel()
	const rate, n = 3.4, 20_000
	g := 3 * time.Second
	s := Config{Process: Poisson, Rate: rate, Grid: g}.Stream(rand.New(rand.NewPCG(1, 2)))
	counts := map[time.Duration]int{}
	var last, sum, sumSq float64
	for i := range n {
		at, ok := s.Next()
		if !ok {
			t.Fatal("stream ended")
		}
		if at%g != 0 {
			t.Fatalf("offset %v not on the %v grid", at, g)
		}
		counts[at]++
		x := at.Seconds()
		if i > 0 {
			gap := x - last
			sum, sumSq = sum+gap, sumSq+gap*gap
		}
		last = x
	}
	if got := (n - 1) / last; math.Abs(got-rate) > 0.02*rate {
		t.Errorf("rate %.3f/s, want %.1f ± 2%%", got, rate)
	}
	slots := last/g.Seconds() + 1
	var m, v float64
	for k := 0.0; k < slots; k++ {
		c := float64(counts[time.Duration(k)*g])
		m, v = m+c, v+c*c
	}
	m /= slots
	v = v/slots - m*m
	if d := v / m; math.Abs(d-1) > 0.1 {
		t.Errorf("slot count dispersion %.3f, want 1 ± 0.1 (Poisson counts)", d)
	}
	mean := sum / (n - 1)
	if cv := math.Sqrt(sumSq/(n-1)-mean*mean) / mean; cv < 2.5 || cv > 4 {
		t.Errorf("gap CV %.2f, want about 3 for a slotted clock", cv)
	}
}
