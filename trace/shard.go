package trace

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Shard says which part of a workload a run sent: shard Index (0-based)
// of Count. A merged report's header lists the shards merged instead.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
	// Merged lists the shard indexes of the records merged into one
	// report, ascending; nil in a run's own records.
	Merged []int `json:"merged,omitempty"`
}

// String writes the shard as "3/16".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseStart parses the instant every shard starts, an RFC 3339
// date-time, and returns it in UTC; "" is the zero time, which leaves
// the instant to Options.StartDelay.
func ParseStart(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: want an RFC 3339 instant like 2026-11-30T12:00:00Z", s)
	}
	return at.UTC(), nil
}

// ParseShard reads a shard written "I/N" with 0 ≤ I < N.
func ParseShard(s string) (Shard, error) {
	var sh Shard
	var rest string
	n, err := fmt.Sscanf(s, "%d/%d%s", &sh.Index, &sh.Count, &rest)
	if (err != nil && n != 2) || n == 3 || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 0 ≤ I < N, like 0/4 (shards count from 0, as a Kubernetes completion index does)", s)
	}
	return sh, nil
}

// AssignShards splits sessions into n shards and returns each session's
// shard. Every session is whole in one shard, and the split depends only
// on the sessions, so every shard computes the same one: sessions are
// taken in start order (then client and index) and each goes to the shard
// with the least load so far, load being the session's prompt and output
// tokens, ties to the lowest shard. Shards thus carry about equal load
// at every point of the schedule, not only in total.
func AssignShards(sessions []*Session, n int) []int {
	order := make([]int, len(sessions))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := sessions[a], sessions[b]
		return cmp.Or(cmp.Compare(sa.AtUS, sb.AtUS), cmp.Compare(sa.Client, sb.Client), cmp.Compare(sa.Index, sb.Index))
	})
	load := make([]int64, n)
	out := make([]int, len(sessions))
	for _, i := range order {
		best := 0
		for k := 1; k < n; k++ {
			if load[k] < load[best] {
				best = k
			}
		}
		out[i] = best
		load[best] += sessionLoad(sessions[i])
	}
	return out
}

// sessionLoad is the tokens a session's turns carry, at least 1.
func sessionLoad(s *Session) int64 {
	var n int64 = 1
	for i := range s.Turns {
		n += int64(s.Turns[i].InputTokens + s.Turns[i].OutputTokens)
	}
	return n
}
