package fit

import "testing"

// TestReplicas checks how many regenerations a trace of n requests takes:
// enough to reach CheckTurns, one for a trace that holds as many, and at
// most maxReplicas.
func TestReplicas(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{0, 1}, {1, maxReplicas}, {41, 49}, {1999, 2}, {CheckTurns, 1}, {49334, 1},
	} {
		if got := replicas(tc.n); got != tc.want {
			t.Errorf("replicas(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
