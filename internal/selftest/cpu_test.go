package selftest

import (
	"testing"
	"time"
)

func TestReadCPU(t *testing.T) {
	t.Parallel()
	before, err := ReadCPU()
	if err != nil {
		t.Skip(err) // a system without getrusage
	}
	// Spin until the process's CPU time grows; the kernel counts it in
	// ticks, so give it up to 5 s of work.
	x := 0
	for give := time.Now().Add(5 * time.Second); time.Now().Before(give); {
		for i := range 1_000_000 {
			x += i
		}
		after, err := ReadCPU()
		if err != nil {
			t.Fatal(err)
		}
		if d := after.Sub(before); d.Total() > 0 && d.User >= 0 && d.System >= 0 {
			return
		}
	}
	t.Errorf("CPU time did not grow after 5 s of work (%d)", x)
}

func TestCPUShare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		c      CPU
		wall   time.Duration
		want   float64
	}{
		{"one core busy", CPU{User: 800 * time.Millisecond, System: 200 * time.Millisecond}, time.Second, 1},
		{"one and a half cores", CPU{User: 3 * time.Second}, 2 * time.Second, 1.5},
		{"no wall time", CPU{User: time.Second}, 0, 0},
	}
	for _, tt := range tests {
		if got := tt.c.Share(tt.wall); got != tt.want {
			t.Errorf("%s: Share = %v, want %v", tt.reason, got, tt.want)
		}
	}
}
