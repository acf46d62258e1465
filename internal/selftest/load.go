package selftest

import (
	"slices"

	"surge/trace"
)

// WarnFor returns Warn's warning for a workload of header h and sessions
// against the self-test saved at path, or "" when none is saved there or
// it was not measured by this build (version) on this machine.
func WarnFor(path, version string, h trace.Header, sessions []*trace.Session) string {
	r, err := Load(path)
	if err != nil || !r.Current(version) {
		return ""
	}
	rate, concurrency := RequestedLoad(h, sessions)
	return Warn(rate, concurrency, r)
}

// RequestedLoad is the load a workload asks for: the most open-loop
// requests whose sessions start within any one second (its peak rate, in
// req/s, each session's turns counted at its start), and the closed-loop
// clients' concurrencies added up.
func RequestedLoad(h trace.Header, sessions []*trace.Session) (rate float64, concurrency int) {
	closed := map[string]bool{}
	for _, c := range h.Clients {
		if c.Concurrency > 0 {
			closed[c.Name] = true
			concurrency += c.Concurrency
		}
	}
	type start struct{ atUS, turns int64 }
	var starts []start
	for _, s := range sessions {
		if !closed[s.Client] {
			starts = append(starts, start{s.AtUS, int64(len(s.Turns))})
		}
	}
	slices.SortFunc(starts, func(a, b start) int { return int(min(max(a.atUS-b.atUS, -1), 1)) })
	// A window [starts[i].atUS, starts[i].atUS + 1 s) for each i, two
	// pointers: j is the first start past the window.
	var in, most int64
	j := 0
	for i := range starts {
		for ; j < len(starts) && starts[j].atUS < starts[i].atUS+1_000_000; j++ {
			in += starts[j].turns
		}
		most = max(most, in)
		in -= starts[i].turns
	}
	return float64(most), concurrency
}
