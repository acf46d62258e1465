package k8s

import (
	"fmt"
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Sizing figures, from `surge selftest`.
const (
	// DefaultRPSPerCore is how many streamed requests per second one core
	// of surge sustains with its timing intact, when selftest has not
	// measured the machine.
	DefaultRPSPerCore = 5000
	// StreamBytes is the memory one request in flight holds: its
	// connection, buffers, token timestamps and record (48 KiB).
	StreamBytes = 48 << 10
	// BaseBytes is the memory of surge with nothing in flight: runtime,
	// tokenizer, the compiled workload of a shard (256 MiB).
	BaseBytes = 256 << 20
	// Headroom multiplies the cores the peak rate needs, so that a shard
	// at its peak uses half its CPU and its clock readings stay on time.
	Headroom = 2
)

// Size returns the requests and limits of a pod carrying load, when one
// core sustains rpsPerCore streamed requests per second (≤ 0: the default):
//
//	cores  = max(1, ⌈Headroom · PeakRate / rpsPerCore⌉)
//	memory = BaseBytes + StreamBytes · InFlight, rounded up to a MiB
//
// Limits equal requests, so each pod gets Guaranteed QoS: it is the last
// evicted under node pressure, and with whole cores the static CPU manager
// gives it cores of its own. Memory is a limit the pod must stay under; the
// container's GOMEMLIMIT (see Manifests) keeps the Go heap below it.
func Size(load Load, rpsPerCore float64) corev1.ResourceRequirements {
	if rpsPerCore <= 0 {
		rpsPerCore = DefaultRPSPerCore
	}
	cores := max(1, int64(math.Ceil(Headroom*load.PeakRate/rpsPerCore)))
	mib := (BaseBytes + StreamBytes*int64(max(load.InFlight, 0)) + 1<<20 - 1) >> 20
	list := corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewQuantity(cores, resource.DecimalSI),
		corev1.ResourceMemory: resource.MustParse(fmt.Sprintf("%dMi", mib)),
	}
	return corev1.ResourceRequirements{Requests: list, Limits: list.DeepCopy()}
}

// goMemLimit is the GOMEMLIMIT for a container whose memory limit is q:
// 90% of it, leaving the rest to stacks and the runtime's own overhead;
// "" without a limit.
func goMemLimit(r corev1.ResourceRequirements) string {
	q, ok := r.Limits[corev1.ResourceMemory]
	if !ok || q.Sign() <= 0 {
		return ""
	}
	return fmt.Sprintf("%dMiB", q.Value()*9/10>>20)
}

// Override sets both the request and the limit of resource name in r to
// the quantity s (4, 500m, 2Gi), which must be positive.
func Override(r corev1.ResourceRequirements, name corev1.ResourceName, s string) error {
	q, err := ParseQuantity(s)
	if err != nil {
		return err
	}
	r.Requests[name], r.Limits[name] = q, q
	return nil
}
