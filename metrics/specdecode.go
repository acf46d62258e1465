package metrics

// SpecDecode is what a server says of its speculative decoding over a
// window: how many drafted tokens the target model accepted.
type SpecDecode struct {
	// Source names the series read: vLLM's counters or SGLang's gauges.
	Source string `json:"source"`
	// FromUS and ToUS are the scrapes the figures span.
	FromUS int64 `json:"from_us"`
	ToUS   int64 `json:"to_us"`
	// Drafts, DraftTokens and Accepted are vLLM's counters' increase
	// over the window: draft steps, tokens drafted, tokens accepted (0
	// from SGLang, which exports no counters).
	Drafts      float64 `json:"drafts,omitempty"`
	DraftTokens float64 `json:"draft_tokens,omitempty"`
	Accepted    float64 `json:"accepted_tokens,omitempty"`
	// AcceptanceRate is the share of drafted tokens accepted:
	// Accepted / DraftTokens, or SGLang's spec_accept_rate averaged over
	// the window's scrapes.
	AcceptanceRate float64 `json:"acceptance_rate"`
	// AcceptLength is the mean tokens a draft step yields, the target
	// model's own token included: 1 + Accepted / Drafts, or SGLang's
	// spec_accept_length averaged; 0 when unknown (a known one is at
	// least 1).
	AcceptLength float64 `json:"accept_length,omitempty"`
	// PerPosition is the acceptance rate at each draft position, from
	// vLLM's per-position counter: accepted at the position / Drafts.
	PerPosition []float64 `json:"per_position,omitempty"`
}

// SpecDecodeOf derives the figures from vLLM-style counters' increase
// between fromUS and toUS: drafts, draft tokens, accepted tokens and the
// accepted tokens at each draft position (perPos, nil when unknown).
//
//	AcceptanceRate = accepted / draftTokens
//	AcceptLength   = 1 + accepted / drafts
//	PerPosition[i] = perPos[i] / drafts
//
// It is false when nothing was drafted or the window is empty: a server
// without speculative decoding.
func SpecDecodeOf(source string, fromUS, toUS int64, drafts, draftTokens, accepted float64, perPos []float64) (SpecDecode, bool) {
	if !(draftTokens > 0) || fromUS == toUS {
		return SpecDecode{}, false
	}
	d := SpecDecode{Source: source, FromUS: fromUS, ToUS: toUS,
		Drafts: drafts, DraftTokens: draftTokens, Accepted: accepted, AcceptanceRate: accepted / draftTokens}
	if drafts > 0 {
		d.AcceptLength = 1 + accepted/drafts
		for _, n := range perPos {
			d.PerPosition = append(d.PerPosition, n/drafts)
		}
	}
	return d, true
}
