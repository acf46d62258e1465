package k8s_test

import (
	"fmt"
	"time"

	"surge/internal/k8s"
)

// Eight shards of a spec against a Service, bundles on a claim created for
// them, each pod sized for 1200 requests/s and 3000 streams at its peak.
func ExampleManifests() {
	m, err := k8s.Manifests(k8s.Config{
		Name:      "surge-chat",
		Image:     "ghcr.io/acme/surge:v0.3.0",
		Shards:    8,
		Target:    "http://vllm.llm.svc:8000",
		StartAt:   time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		Spec:      []byte("version: 1\n"),
		Output:    k8s.Output{Claim: "surge-out", Size: "20Gi"},
		Resources: k8s.Size(k8s.Load{PeakRate: 1200, InFlight: 3000}, k8s.DefaultRPSPerCore),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := m.Job.Spec.Template.Spec.Containers[0]
	fmt.Println(*m.Job.Spec.CompletionMode, *m.Job.Spec.Parallelism, *m.Job.Spec.Completions)
	fmt.Println(c.Args)
	fmt.Println(c.Resources.Limits.Cpu(), c.Resources.Limits.Memory())
	// Output:
	// Indexed 8 8
	// [run /spec/spec.yaml --target http://vllm.llm.svc:8000 --shard $(JOB_COMPLETION_INDEX)/8 --start-at 2026-11-30T12:00:00Z -o /out/shard-$(JOB_COMPLETION_INDEX)]
	// 1 397Mi
}
