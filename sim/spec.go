package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// MaxSpeculativeTokens is the longest draft the engine proposes per
// sequence and step, and the length of Stats.SpecAcceptedPerPos.
const MaxSpeculativeTokens = 16

// SpecMethod is how speculative decoding drafts its tokens.
type SpecMethod uint8

const (
	// DraftModel drafts with a small model run beside the target: drafts
	// are good on any text and cost a fraction of a target step each.
	DraftModel SpecMethod = iota
	// NGram drafts by matching the last tokens against the prompt (vLLM's
	// "ngram" method): nearly free, and good only where the output
	// repeats the prompt.
	NGram
)

// Per-method defaults of Speculative's zero fields.
const (
	// DefaultDraftAcceptance is a draft model's per-token acceptance on
	// text that copies nothing from the prompt: the EAGLE and small-draft
	// acceptance rates vLLM reports on chat data sets are 0.5–0.7.
	DefaultDraftAcceptance = 0.6
	// DefaultNGramAcceptance is the n-gram drafter's on such text: it
	// rarely finds a match to propose.
	DefaultNGramAcceptance = 0.1
	// DefaultDraftCost is a draft model's forward pass as a fraction of
	// the target's decode step of the same sequences (a 1B draft of an 8B
	// target, whose step is bound by reading weights, is about a tenth).
	DefaultDraftCost = 0.1
)

// Speculative configures speculative decoding. Its zero value is off;
// when on, zero Acceptance and DraftCost take the method's defaults.
//
// Each step, every decoding sequence proposes k = min(Tokens, tokens it
// still has to generate − 1, budget left − 1) drafts, and the target
// verifies them with its newest token, k+1 tokens in one forward pass (a
// Batch.Verify chunk). Draft i (0-based) is accepted when every draft
// before it was and a Bernoulli trial of probability
//
//	a = Acceptance + (1 − Acceptance)·copy
//
// succeeds, where copy is the request's Request.Copy; the step then emits
// the m accepted drafts and the target's own next token, m+1 tokens, and
// the KV slots of the rejected drafts are freed. The expected tokens per
// step are the truncated geometric
//
//	E[m+1] = Σ_{j=0..k} a^j = (1 − a^(k+1)) / (1 − a)
//
// and the acceptance rate, accepted over drafted, is (E[m+1] − 1)/k.
// Drafting adds k·DraftCost times the target's decode step of the
// sequences drafting to the step (the k draft passes of a draft model;
// the n-gram drafter runs on the CPU beside the GPU and adds nothing).
// The trials draw from a PCG seeded by Seed, so a run is reproducible.
type Speculative struct {
	Tokens int // drafts per sequence and step, vLLM's num_speculative_tokens; 0 is off
	Method SpecMethod
	// Acceptance is the per-token acceptance on text that copies nothing
	// (copy 0), in [0, 1]; 0 takes the method's default.
	Acceptance float64
	// DraftCost is one draft pass over the batch as a fraction of the
	// target's decode step, at least 0; 0 takes the method's default
	// (DefaultDraftCost for a draft model, 0 for n-grams).
	DraftCost float64
	Seed      uint64
}

// On reports whether speculative decoding is on.
func (sp Speculative) On() bool { return sp.Tokens > 0 }

// withDefaults returns sp with its zero fields set for its method, or an
// error naming each field out of range.
func (sp Speculative) withDefaults() (Speculative, error) {
	var errs []error
	if sp.Tokens < 0 || sp.Tokens > MaxSpeculativeTokens {
		errs = append(errs, fmt.Errorf("speculative tokens %d: want 0 (off) to %d", sp.Tokens, MaxSpeculativeTokens))
	}
	if sp.Method != DraftModel && sp.Method != NGram {
		errs = append(errs, fmt.Errorf("unknown speculative method %d", sp.Method))
	}
	if !(sp.Acceptance >= 0 && sp.Acceptance <= 1) {
		errs = append(errs, fmt.Errorf("speculative acceptance %g: want a probability in [0, 1]", sp.Acceptance))
	}
	if !(sp.DraftCost >= 0) || math.IsInf(sp.DraftCost, 1) {
		errs = append(errs, fmt.Errorf("speculative draft cost %g: want a fraction of a step, at least 0", sp.DraftCost))
	}
	if sp.On() {
		sp.Acceptance = sp.acceptance()
		if sp.DraftCost == 0 && sp.Method == DraftModel {
			sp.DraftCost = DefaultDraftCost
		}
	}
	return sp, errors.Join(errs...)
}

// acceptance is Acceptance, or its method's default when 0.
func (sp Speculative) acceptance() float64 {
	switch {
	case sp.Acceptance != 0:
		return sp.Acceptance
	case sp.Method == NGram:
		return DefaultNGramAcceptance
	}
	return DefaultDraftAcceptance
}

// AcceptProb is the per-token acceptance of a request whose output
// copies a fraction copy (clamped to [0, 1]) of its prompt:
// Acceptance + (1 − Acceptance)·copy. sp's zero Acceptance takes its
// method's default.
func (sp Speculative) AcceptProb(copy float64) float64 {
	c := min(max(copy, 0), 1)
	if math.IsNaN(copy) {
		c = 0
	}
	base := sp.acceptance()
	return base + (1-base)*c
}

// ExpectedTokens is the mean tokens one step of k drafts yields at
// per-token acceptance a: (1 − a^(k+1))/(1 − a), k+1 when a is 1.
func ExpectedTokens(a float64, k int) float64 {
	if a >= 1 {
		return float64(k + 1)
	}
	return (1 - math.Pow(a, float64(k+1))) / (1 - a)
}

// accepted draws how many of k drafts the target accepts at per-token
// acceptance a: the run of leading successes.
func accepted(rng *rand.Rand, a float64, k int) int {
	m := 0
	for m < k && rng.Float64() < a {
		m++
	}
	return m
}

// ParseSpecMethod reads a method by vLLM's name: "draft_model" (also
// "draft", "" or "eagle", which drafts alike in this model) or "ngram".
func ParseSpecMethod(s string) (SpecMethod, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "draft", "draft_model", "draft-model", "eagle", "eagle3", "mtp":
		return DraftModel, nil
	case "ngram", "n-gram":
		return NGram, nil
	}
	return DraftModel, fmt.Errorf("unknown speculative method %q (want draft_model or ngram)", s)
}

// String returns the method's vLLM name: "draft_model" or "ngram".
func (m SpecMethod) String() string {
	switch m {
	case DraftModel:
		return "draft_model"
	case NGram:
		return "ngram"
	}
	return "SpecMethod(" + strconv.Itoa(int(m)) + ")"
}

// specStream is the PCG stream of the acceptance trials.
const specStream = 0x5bec_dec0de

// drafts is how many tokens running sequence s drafts this step: none
// unless speculative decoding is on and s is decoding; then Tokens, fewer
// when s needs fewer tokens to finish or the step's budget has no room.
func (e *Engine) drafts(s *seq) int {
	k := e.cfg.Speculative.Tokens
	if k == 0 || s.generated == 0 || s.computed != s.total()-1 {
		return 0
	}
	return max(0, min(k, s.req.OutputLen-s.generated-1, e.budget-1))
}

// verify applies the verification of sc's drafts at the end of a step:
// it draws how many the target accepts, counts them, moves s on by them
// and its own next token, and frees the KV slots of the rejected ones.
// It returns the tokens s generated.
func (e *Engine) verify(sc scheduled, old int) int {
	s := sc.s
	m := accepted(e.rng, e.cfg.Speculative.AcceptProb(s.req.Copy), sc.drafts)
	st := &e.stats
	st.SpecDrafts++
	st.SpecDraftTokens += int64(sc.drafts)
	st.SpecAccepted += int64(m)
	for i := range m {
		st.SpecAcceptedPerPos[i]++
	}
	s.computed = old + 1 + m
	if keep := e.kv.blocksFor(s.computed); keep < len(s.blocks) {
		e.kv.release(s.blocks[keep:])
		s.blocks = s.blocks[:keep]
	}
	return 1 + m
}

// draftTime is the time the draft passes add to a step: DraftCost times the target's decode step of the
// drafting sequences, once per draft position.
func (e *Engine) draftTime() time.Duration {
	sp := e.cfg.Speculative
	if sp.DraftCost == 0 {
		return 0
	}
	e.draft.Decode = e.draft.Decode[:0]
	most := 0
	for _, sc := range e.sched {
		if sc.drafts > 0 {
			e.draft.Decode = append(e.draft.Decode, sc.s.computed)
			most = max(most, sc.drafts)
		}
	}
	if most == 0 {
		return 0
	}
	return time.Duration(float64(most) * sp.DraftCost * float64(e.cost.StepTime(e.draft)))
}
