package trace

import (
	"math"
	"testing"
)

func TestParseShard(t *testing.T) {
	t.Parallel()
	if s, err := ParseShard("3/16"); err != nil || s.Index != 3 || s.Count != 16 || s.String() != "3/16" {
		t.Errorf("3/16: %+v, %v", s, err)
	}
	for _, bad := range []string{"16/16", "-1/4", "1/0", "1", "a/b", "1/4x", ""} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestAssignShards checks the split: deterministic whatever the order the
// sessions come in, every session in one shard, and the load of each
// shard within one session's load of the others, in total and over the
// first half of the schedule.
func TestAssignShards(t *testing.T) {
	t.Parallel()
	var ss []*Session
	for i := range 1000 {
		in := 100 + (i*7919)%2000 // lengths of many sizes
		ss = append(ss, &Session{Client: "c", Index: i, AtUS: int64(i) * 1000, Turns: []Turn{{InputTokens: in, OutputTokens: 50}}})
	}
	const n = 4
	a := AssignShards(ss, n)
	rev := make([]*Session, len(ss))
	for i := range ss {
		rev[len(ss)-1-i] = ss[i]
	}
	b := AssignShards(rev, n)
	load := make([]float64, n)
	half := make([]float64, n)
	for i, s := range ss {
		if b[len(ss)-1-i] != a[i] {
			t.Fatalf("session %d: shard %d in one order, %d in the other", i, a[i], b[len(ss)-1-i])
		}
		load[a[i]] += float64(sessionLoad(s))
		if i < 500 {
			half[a[i]] += float64(sessionLoad(s))
		}
	}
	for _, l := range [][]float64{load, half} {
		lo, hi := math.Inf(1), 0.0
		for _, v := range l {
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi-lo > 2150 {
			t.Errorf("shard loads %v: spread %.0f, want at most one session's load", l, hi-lo)
		}
	}
}
