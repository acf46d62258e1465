package k8s

import (
	"slices"
	"time"

	"surge/trace"
)

// Load is what one shard carries at its busiest.
type Load struct {
	PeakRate float64 // requests sent in the busiest second
	InFlight int     // requests in flight at once, at most
}

// PlanLoad estimates the load of the busiest of n shards of a workload, its
// sessions split as `surge run --shard` splits them (trace.AssignShards),
// on the assumption that every request takes e2e from send to finish.
//
// Open-loop sessions follow their plan: a turn waiting for nothing is sent
// at the session's start, any other e2e after the last turn it waits for
// ends, plus its wait. With the sends s₁ ≤ s₂ ≤ … of one shard, and every
// request in flight over [s, s+e2e),
//
//	PeakRate = max_t #{i : t ≤ sᵢ < t + 1 s}
//	InFlight = max_t #{i : t − e2e < sᵢ ≤ t} = max_t #{i : t ≤ sᵢ < t + e2e}
//
// A closed-loop client of concurrency C keeps c = ⌊C/n⌋ or ⌈C/n⌉ requests
// in flight on a shard, and sends c/e2e per second (Little's law). Shards
// are balanced by load, so the busiest is near the mean; the estimate
// takes the busiest one anyway.
func PlanLoad(clients []trace.ClientInfo, sessions []*trace.Session, n int, e2e time.Duration) Load {
	n = max(n, 1)
	e2eUS := max(e2e.Microseconds(), 1)
	closed := map[string]bool{}
	closedInFlight := 0
	for _, c := range clients {
		if c.Concurrency > 0 {
			closed[c.Name] = true
			closedInFlight += (c.Concurrency + n - 1) / n
		}
	}
	sends := make([][]int64, n)
	for i, k := range trace.AssignShards(sessions, n) {
		if s := sessions[i]; !closed[s.Client] {
			sends[k] = append(sends[k], sendTimes(s, e2eUS)...)
		}
	}
	var busiest Load
	for _, ss := range sends {
		slices.Sort(ss)
		busiest.PeakRate = max(busiest.PeakRate, float64(maxInWindow(ss, int64(time.Second/time.Microsecond))))
		busiest.InFlight = max(busiest.InFlight, maxInWindow(ss, e2eUS))
	}
	busiest.PeakRate += float64(closedInFlight) / max(e2e.Seconds(), 1e-6)
	busiest.InFlight += closedInFlight
	return busiest
}

// sendTimes plans the send offset, in µs, of each turn of s when every
// request takes e2eUS.
func sendTimes(s *trace.Session, e2eUS int64) []int64 {
	at := make([]int64, len(s.Turns))
	done := make([]int8, len(s.Turns)) // 0 unplanned, 1 in progress, 2 planned
	var plan func(i int) int64
	plan = func(i int) int64 {
		if done[i] == 2 {
			return at[i]
		}
		if done[i] == 1 { // a cycle: no valid trace has one; treat as a root
			return s.AtUS
		}
		done[i] = 1
		t := s.Turns[i]
		deps := t.After
		if t.Parent != nil {
			deps = append([]int{*t.Parent}, deps...)
		}
		at[i] = s.AtUS
		if len(deps) > 0 {
			ready := s.AtUS
			for _, d := range deps {
				if d >= 0 && d < len(s.Turns) {
					ready = max(ready, plan(d)+e2eUS)
				}
			}
			at[i] = ready + t.WaitUS
		}
		done[i] = 2
		return at[i]
	}
	for i := range s.Turns {
		plan(i)
	}
	return at
}

// maxInWindow is the largest number of the sorted times that fall in one
// half-open window [t, t+w).
func maxInWindow(sorted []int64, w int64) int {
	best, lo := 0, 0
	for hi, t := range sorted {
		for sorted[lo] <= t-w {
			lo++
		}
		best = max(best, hi-lo+1)
	}
	return best
}
