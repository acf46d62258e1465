package main

import (
	"runtime/debug"
	"testing"
)

// TestSetMemoryLimit: on a machine that says its memory, the limit is
// three quarters of it (or of the cgroup's), and GOMEMLIMIT overrides it.
func TestSetMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	total := memTotal()
	if cg := cgroupLimit(); cg > 0 && (total == 0 || cg < total) {
		total = cg
	}
	got := setMemoryLimit()
	if total > 0 && (got != total/4*3 || debug.SetMemoryLimit(-1) != got) {
		t.Errorf("limit %d, runtime's %d; want %d of %d", got, debug.SetMemoryLimit(-1), total/4*3, total)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	if got := setMemoryLimit(); got != 0 {
		t.Errorf("with GOMEMLIMIT set, a limit of %d", got)
	}
}
