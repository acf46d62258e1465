package sweep

import (
	"time"

	"surge/spec"
)

// PointSpec is the spec of the planned run p of s: at its rate or
// concurrency, and lengthened so that at least minReqs requests come
// after its warmup (0: as written). The saturation probe runs the spec's
// request count, and at least 4 per slot of its concurrency so that the
// server stays full past the warmup.
func PointSpec(s *spec.Spec, p Plan, minReqs int) (*spec.Spec, error) {
	if p.Mode == Concurrency {
		probe := probeRequests(s, p)
		out, err := AtConcurrency(s, int(p.Load), probe)
		if err == nil && probe == 0 {
			out.Requests = max(out.Requests, minReqs+int(p.Load))
		}
		return out, err
	}
	out, err := AtRate(s, p.Load)
	if err != nil || minReqs <= 0 {
		return out, err
	}
	if out.Duration > 0 {
		need := out.Warmup + time.Duration(float64(minReqs)/p.Load*float64(time.Second))
		out.Duration = max(out.Duration, need)
	} else {
		out.Requests = max(out.Requests, minReqs+int(p.Load*out.Warmup.Seconds()))
	}
	return out, nil
}

// probeRequests is how many sessions the saturation probe p runs, 0 for
// any other plan.
func probeRequests(s *spec.Spec, p Plan) int {
	if p.Name != probeName {
		return 0
	}
	n := s.Requests
	if n <= 0 {
		if r, err := OfferedRate(s); err == nil {
			n = int(r * s.Duration.Seconds())
		}
	}
	return max(n, 4*int(p.Load))
}
