package metrics

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"surge/trace"
)

// Bounds of the engine check.
const (
	// EngineSlackUS is how much shorter than the server's own timing of a
	// request the client's may be (the server's clock and rounding) before
	// the two contradict each other.
	EngineSlackUS = 1000
	// EngineGapUS and EngineGapShare bound how much longer than the
	// server's the client's latency may be where the server's timing
	// starts at the request's arrival: the larger of 10 ms and a quarter
	// of the server's figure. More is time outside the server (network,
	// proxies, the client's own delay) too large to call the client's
	// figure the server's.
	EngineGapUS    = 10_000
	EngineGapShare = 0.25
	// EngineContradictShare is the share of requests whose client timing
	// may fall short of the server's before the check fails.
	EngineContradictShare = 0.01
)

// ServerTimings sets the server's own per-request timings (the records'
// server_ttft_us and server_e2e_us) beside the client's, over the
// successful measured streamed requests that carry them.
type ServerTimings struct {
	Requests int `json:"requests"`
	// FromArrival is true when the server's timings start at the
	// request's arrival (surge's engine reports its queue time), so the
	// gap is the time outside the server; false when they start later
	// (llama-server's prompt_ms starts when a slot takes the request,
	// after any queueing), so only a negative gap means anything.
	FromArrival bool `json:"from_arrival"`
	// TTFT and E2E compare the two clocks; nil when no request has that
	// server timing.
	TTFT *TimingGap `json:"ttft,omitempty"`
	E2E  *TimingGap `json:"e2e,omitempty"`
}

// TimingGap compares one latency as the client and the server measured
// it: medians over the requests that have both, the median of their
// per-request gaps (client − server), and how many requests the client
// timed shorter than the server by more than EngineSlackUS.
type TimingGap struct {
	N             int     `json:"n"`
	ClientP50US   float64 `json:"client_p50_us"`
	ServerP50US   float64 `json:"server_p50_us"`
	GapP50US      float64 `json:"gap_p50_us"`
	Contradicting int     `json:"contradicting"`
}

// EngineMean is one latency's mean as the server's histogram has it beside
// the client's, for servers that export histograms rather than per-request
// timings (vLLM, SGLang). FromArrival is as in ServerTimings.
type EngineMean struct {
	Metric      string  `json:"metric"`
	ClientUS    float64 `json:"client_us"`
	EngineUS    float64 `json:"engine_us"`
	FromArrival bool    `json:"from_arrival"`
}

// serverTimings compares the server's timings of recs with the client's;
// nil when no successful measured streamed request carries any.
// fromArrival says whether the server's timings start at arrival.
func serverTimings(recs []*trace.Record, fromArrival bool) *ServerTimings {
	var ttft, e2e [][2]float64
	n := 0
	for _, r := range recs {
		if !Succeeded.Has(r) || !Streamed(r) || r.ServerTTFTUS <= 0 && r.ServerE2EUS <= 0 {
			continue
		}
		n++
		if r.ServerQueueUS > 0 {
			fromArrival = true
		}
		if c, ok := TTFT(r); ok && r.ServerTTFTUS > 0 {
			ttft = append(ttft, [2]float64{float64(c), float64(r.ServerTTFTUS)})
		}
		if r.ServerE2EUS > 0 {
			e2e = append(e2e, [2]float64{float64(r.E2EUS), float64(r.ServerE2EUS)})
		}
	}
	if n == 0 {
		return nil
	}
	return &ServerTimings{Requests: n, FromArrival: fromArrival, TTFT: timingGap(ttft), E2E: timingGap(e2e)}
}

// timingGap summarises pairs of (client, server) timings.
func timingGap(pairs [][2]float64) *TimingGap {
	if len(pairs) == 0 {
		return nil
	}
	cs, ss, gs := make([]float64, len(pairs)), make([]float64, len(pairs)), make([]float64, len(pairs))
	g := &TimingGap{N: len(pairs)}
	for i, p := range pairs {
		cs[i], ss[i], gs[i] = p[0], p[1], p[0]-p[1]
		if gs[i] < -EngineSlackUS {
			g.Contradicting++
		}
	}
	g.ClientP50US, g.ServerP50US, g.GapP50US = median(cs), median(ss), median(gs)
	return g
}

// median is the nearest-rank median of v (see Rank), which it sorts.
func median(v []float64) float64 {
	slices.Sort(v)
	return v[Rank(50, len(v))-1]
}

// EngineCheck judges whether the server's own timings (per request, from
// s.ServerTimings, and histogram means, from means) agree with the
// client's: a client timing shorter than the server's by more than
// EngineSlackUS in more than EngineContradictShare of requests (or a
// shorter mean) contradicts it; where the server's timing starts at
// arrival, a client median (or mean) longer by more than
// max(EngineGapUS, EngineGapShare × the server's) is time outside the
// server the figures then include. It does not apply without either.
func EngineCheck(s *Summary, means []EngineMean) Check {
	var bad, seen []string
	if st := s.ServerTimings; st != nil {
		for _, m := range []struct {
			name string
			g    *TimingGap
		}{{"TTFT", st.TTFT}, {"E2E", st.E2E}} {
			if m.g == nil {
				continue
			}
			seen = append(seen, fmt.Sprintf("%s median gap %s ms over %d requests", m.name, msText(m.g.GapP50US), m.g.N))
			if float64(m.g.Contradicting) > EngineContradictShare*float64(m.g.N) {
				bad = append(bad, fmt.Sprintf("the client timed %s shorter than the server itself did in %d of %d requests", m.name, m.g.Contradicting, m.g.N))
			} else if st.FromArrival && tooFar(m.g.GapP50US, m.g.ServerP50US) {
				bad = append(bad, fmt.Sprintf("the client's median %s is %s ms longer than the server's (%s ms)", m.name, msText(m.g.GapP50US), msText(m.g.ServerP50US)))
			}
		}
	}
	for _, m := range means {
		name := strings.ToUpper(m.Metric)
		gap := m.ClientUS - m.EngineUS
		seen = append(seen, fmt.Sprintf("%s mean gap %s ms against the server's histogram", name, msText(gap)))
		switch {
		case gap < -max(EngineSlackUS, EngineGapShare*m.EngineUS):
			bad = append(bad, fmt.Sprintf("the client's mean %s (%s ms) is shorter than the server's histogram's (%s ms)", name, msText(m.ClientUS), msText(m.EngineUS)))
		case m.FromArrival && tooFar(gap, m.EngineUS):
			bad = append(bad, fmt.Sprintf("the client's mean %s is %s ms longer than the server's histogram's (%s ms)", name, msText(gap), msText(m.EngineUS)))
		}
	}
	switch {
	case len(bad) > 0:
		return fail(CheckEngine, "%s", strings.Join(bad, "; "))
	case len(seen) == 0:
		return skip(CheckEngine, "the server reported no timings of its own")
	}
	return pass(CheckEngine, "the server's timings agree with the client's: %s", strings.Join(seen, ", "))
}

// tooFar reports whether a client figure longer than the server's by gap
// lies outside the bound of EngineCheck.
func tooFar(gap, server float64) bool {
	return gap > max(EngineGapUS, EngineGapShare*server)
}

// msText formats µs as ms with three significant decimals at most.
func msText(us float64) string {
	return trimFloat(math.Round(us) / 1000)
}
