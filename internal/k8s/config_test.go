package k8s

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

func TestOverride(t *testing.T) {
	t.Parallel()
	r := Size(Load{PeakRate: 100, InFlight: 10}, DefaultRPSPerCore)
	mem := r.Requests[corev1.ResourceMemory]
	if err := Override(r, corev1.ResourceCPU, "3"); err != nil {
		t.Fatal(err)
	}
	if c, l := r.Requests[corev1.ResourceCPU], r.Limits[corev1.ResourceCPU]; c.String() != "3" || l.String() != "3" {
		t.Errorf("cpu request %v, limit %v; want 3 and 3", c.String(), l.String())
	}
	if m := r.Requests[corev1.ResourceMemory]; !m.Equal(mem) {
		t.Errorf("memory changed to %v, want %v", m.String(), mem.String())
	}
	if err := Override(r, corev1.ResourceMemory, "0"); errString(err) != `"0": want a positive quantity like 4, 500m or 2Gi` {
		t.Errorf("Override 0: %v", err)
	}
}

// TestSummary holds the summary to the bytes surge k8s printed before it
// moved here, with and without the warning for bundles lost with the pods.
func TestSummary(t *testing.T) {
	t.Parallel()
	const head = "surge k8s: Job surge-x, 4 shards, each 5 CPU and 257Mi memory (busiest shard: 123 requests/s, 17 in flight)\n" +
		"surge k8s: every shard starts at 2026-11-30T12:00:00Z: apply the manifests before then\n"
	load := Load{PeakRate: 123.4, InFlight: 17}
	for _, tt := range []struct {
		name string
		out  Output
		want string
	}{
		{"emptydir", Output{}, head + "surge k8s: warning: --output-volume emptydir: the bundles are lost when the pods end; use pvc:NAME[:SIZE] to keep them\n"},
		{"a claim", Output{Claim: "c"}, head},
	} {
		cfg := Config{Name: "surge-x", Shards: 4, StartAt: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Output: tt.out, Resources: Size(load, 50)}
		if got := Summary(cfg, load); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
