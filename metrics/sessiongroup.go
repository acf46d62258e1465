package metrics

import (
	"cmp"
	"slices"

	"surge/trace"
)

// groupSessions groups recs by session (client and session index), in
// order of each session's first record. The groups share one backing
// slice. It returns nil, without grouping, when no two records share a
// session.
func groupSessions(recs []*trace.Record) [][]*trace.Record {
	type key struct {
		client  string
		session int
	}
	index := map[key]int{}
	ids := make([]int, len(recs))
	var sizes []int
	for i, r := range recs {
		k := key{r.Client, r.Session}
		id, ok := index[k]
		if !ok {
			id = len(sizes)
			index[k] = id
			sizes = append(sizes, 0)
		}
		ids[i] = id
		sizes[id]++
	}
	if len(sizes) == len(recs) {
		return nil
	}
	// Counting sort: each group is a zero-length window of flat with room
	// for exactly its records, so appending fills flat in place.
	flat := make([]*trace.Record, len(recs))
	groups := make([][]*trace.Record, len(sizes))
	off := 0
	for id, n := range sizes {
		groups[id] = flat[off:off:(off + n)]
		off += n
	}
	for i, r := range recs {
		groups[ids[i]] = append(groups[ids[i]], r)
	}
	return groups
}

// ofClient returns the groups whose records belong to client.
func ofClient(groups [][]*trace.Record, client string) [][]*trace.Record {
	var out [][]*trace.Record
	for _, g := range groups {
		if g[0].Client == client {
			out = append(out, g)
		}
	}
	return out
}

// session computes the figures of one session from its records g, which
// it sorts by turn (see Sessions for the definitions).
func (c *calc) session(g []*trace.Record) session {
	slices.SortFunc(g, func(a, b *trace.Record) int { return cmp.Compare(a.Turn, b.Turn) })
	s := session{requests: len(g), startUS: g[0].IntendedUS, endUS: g[0].IntendedUS, origin: sessionOrigin(g), complete: true}
	earliest := g[0] // sorted by turn, so ties go to the lowest turn
	for i, r := range g {
		if r.IntendedUS < earliest.IntendedUS {
			earliest = r
		}
		s.failed = s.failed || !r.OK()
		s.complete = s.complete && r.Turn == i
		s.startUS = min(s.startUS, r.IntendedUS)
		s.context = max(s.context, InputTokens(r))
		s.deadline = max(s.deadline, r.DeadlineUS)
		if r.ErrorClass != trace.ErrDropped {
			s.endUS = max(s.endUS, completion(r))
			s.llmUS += r.E2EUS
		}
		switch {
		case r.IntendedUS-r.WaitUS == s.origin:
			// An opening turn: its wait is a release offset.
		case r.ToolCalls > 0:
			s.toolUS += r.WaitUS
		default:
			s.thinkUS += r.WaitUS
		}
	}
	s.warmup = earliest.Warmup
	s.complete = s.complete && !s.failed
	s.busyUS = c.busy(g)
	return s
}

// span is a half-open interval [lo, hi) of µs offsets.
type span struct{ lo, hi int64 }

// busy is the length of the union of the in-flight intervals [SentUS,
// SentUS + E2EUS) of the sent records of g: sorted by start, each
// interval either extends the current run of overlapping ones or closes
// it and starts the next.
func (c *calc) busy(g []*trace.Record) int64 {
	iv := c.spans[:0]
	for _, r := range g {
		if r.ErrorClass != trace.ErrDropped {
			iv = append(iv, span{r.SentUS, completion(r)})
		}
	}
	c.spans = iv
	if len(iv) == 0 {
		return 0
	}
	slices.SortFunc(iv, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	var total int64
	cur := iv[0]
	for _, x := range iv[1:] {
		if x.lo <= cur.hi {
			cur.hi = max(cur.hi, x.hi)
			continue
		}
		total += cur.hi - cur.lo
		cur = x
	}
	return total + cur.hi - cur.lo
}
