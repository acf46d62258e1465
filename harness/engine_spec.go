package harness

import (
	"fmt"

	"surge/metrics"
	"surge/sim"
)

// speculative reads SpeculativeTokens and SpeculativeMethod into the
// engine's speculative decoding, with the method's default acceptance and
// draft cost.
func (e EngineSettings) speculative() (sim.Speculative, error) {
	m, err := sim.ParseSpecMethod(e.SpeculativeMethod)
	if err != nil {
		return sim.Speculative{}, fmt.Errorf("--speculative-method: %w", err)
	}
	if e.SpeculativeTokens < 0 || e.SpeculativeTokens > sim.MaxSpeculativeTokens {
		return sim.Speculative{}, fmt.Errorf("--speculative-tokens %d: want 0 (off) to %d drafts a step", e.SpeculativeTokens, sim.MaxSpeculativeTokens)
	}
	return sim.Speculative{Tokens: e.SpeculativeTokens, Method: m}, nil
}

// specQuery is the speculative decoding part of Query: nothing when off,
// else the drafts and the method, e.g. "speculative-tokens=4" and
// "speculative-method=ngram" (draft_model, the default, is not named).
func (e EngineSettings) specQuery() []string {
	sp, err := e.speculative()
	if err != nil || !sp.On() {
		return nil
	}
	q := []string{fmt.Sprintf("speculative-tokens=%d", sp.Tokens)}
	if sp.Method != sim.DraftModel {
		q = append(q, "speculative-method="+sp.Method.String())
	}
	return q
}

// simSpecSource is the Source of a simulation's speculative decoding.
const simSpecSource = "built-in engine's spec_decode counters, whole run"

// engineSpecDecode is the speculative decoding of a simulation's engines,
// drafting k tokens a step, from their counters at its end (st), over the
// whole run, warmup included, as vLLM's counters count since start-up;
// nil when they drafted nothing.
func engineSpecDecode(st sim.Stats, k int, endUS int64) *metrics.SpecDecode {
	perPos := make([]float64, 0, sim.MaxSpeculativeTokens)
	for _, n := range st.SpecAcceptedPerPos[:min(max(k, 0), sim.MaxSpeculativeTokens)] {
		perPos = append(perPos, float64(n))
	}
	d, ok := metrics.SpecDecodeOf(simSpecSource, 0, max(endUS, 1),
		float64(st.SpecDrafts), float64(st.SpecDraftTokens), float64(st.SpecAccepted), perPos)
	if !ok {
		return nil
	}
	return &d
}
