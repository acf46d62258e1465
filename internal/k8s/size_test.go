package k8s

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		load        Load
		rpsPerCore  float64
		cpu, memory string
		goMemLimit  string
		reason      string
	}{
		{Load{}, 0, "1", "256Mi", "230MiB", "an idle shard still gets a core and the base memory"},
		{Load{PeakRate: 2500, InFlight: 0}, 5000, "1", "256Mi", "230MiB", "2 × 2500 / 5000 = 1 core exactly"},
		{Load{PeakRate: 2501}, 5000, "2", "256Mi", "230MiB", "just past one core rounds up"},
		{Load{PeakRate: 10000}, 0, "4", "256Mi", "230MiB", "0 means the default 5000 per core: 2 × 10000 / 5000"},
		{Load{PeakRate: 10000}, 1000, "20", "256Mi", "230MiB", "a slower machine, as selftest measured it"},
		{Load{InFlight: 1}, 0, "1", "257Mi", "231MiB", "one stream's 48 KiB rounds up to a MiB"},
		{Load{InFlight: 64}, 0, "1", "259Mi", "233MiB", "64 × 48 KiB = 3 MiB exactly"},
		{Load{InFlight: 10000}, 0, "1", "725Mi", "652MiB", "256 MiB + 10000 × 48 KiB = 724.75 MiB, rounded up"},
	}
	for _, tt := range tests {
		r := Size(tt.load, tt.rpsPerCore)
		for name, list := range map[string]corev1.ResourceList{"requests": r.Requests, "limits": r.Limits} {
			if cpu := list.Cpu().String(); cpu != tt.cpu {
				t.Errorf("Size(%+v, %g) %s cpu = %s, want %s (%s)", tt.load, tt.rpsPerCore, name, cpu, tt.cpu, tt.reason)
			}
			if mem := list.Memory().String(); mem != tt.memory {
				t.Errorf("Size(%+v, %g) %s memory = %s, want %s (%s)", tt.load, tt.rpsPerCore, name, mem, tt.memory, tt.reason)
			}
		}
		if got := goMemLimit(r); got != tt.goMemLimit {
			t.Errorf("goMemLimit(Size(%+v)) = %s, want %s (%s)", tt.load, got, tt.goMemLimit, tt.reason)
		}
	}
	if got := goMemLimit(corev1.ResourceRequirements{}); got != "" {
		t.Errorf("goMemLimit without a limit = %q, want none", got)
	}
}
