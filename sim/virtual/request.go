package virtual

import (
	"fmt"
	"time"

	"surge/openai"
	"surge/sim"
	"surge/trace"
)

// arrive takes arrival a: it starts a session, or sends a turn whose
// dependencies have finished and whose wait has passed.
func (rn *runner) arrive(a arrival) error {
	rn.now = a.at
	if a.sr == nil {
		return rn.start(a.start, a.at)
	}
	return rn.send(a.sr, a.turn, a.at)
}

// send sends turn k of sr at time at: it builds the engine request, answers
// a 400 at once if the server would refuse it, or adds it to the routed
// replica.
func (rn *runner) send(sr *sessionRun, k int, at time.Duration) error {
	rn.sent++
	sr.turns[k].state = sent
	id := rn.newID()
	f := &rn.flights[id]
	rn.msgs = sr.messages(rn.msgs, k)
	*f = flight{
		sr: sr, turn: k, arrival: at,
		model:  pick(rn.cfg.Model, sr.s.Model, rn.models[sr.s.Client]),
		warmup: at < rn.warmup,
		prompt: max(promptLen(rn.msgs), 1),
		input:  sr.inputTokens(k),
		reason: sr.s.Turns[k].ReasoningTokens,
	}
	f.images, f.imageTk = sr.images(k)
	switch {
	case sr.s.API == openai.APIEmbeddings:
		f.inputs = max(len(sr.s.Turns[k].Inputs), 1)
	case openai.Scores(sr.s.API):
		f.documents = max(len(sr.s.Turns[k].Documents), 1)
	}
	var hashes []uint64
	if rn.prefix && !f.pooled() {
		// A batch of inputs or pairs is not one sequence whose prefix
		// others share.
		hashes = sr.hashes(&rn.hash, rn.msgs, k)
	}
	sr.leave(k)
	if err := rn.admit(id, f, &sr.s.Turns[k], hashes); err != nil {
		return rn.reject(id, f, err)
	}
	return nil
}

// admit sizes f's output and adds it to a replica. The context check is
// vLLM's: prompt + max_tokens (1 when unset) must fit in MaxModelLen.
func (rn *runner) admit(id uint64, f *flight, t *trace.Turn, hashes []uint64) error {
	if err := sim.CheckContext(rn.maxLen, f.prompt, max(t.MaxTokens, 1)); err != nil {
		return err
	}
	f.out, f.finish = outputLen(t, rn.maxLen-f.prompt)
	f.sr.turns[f.turn].out = f.out
	if f.choices = rn.choices(f.sr); f.choices > 1 {
		f.hashes, f.copy = hashes, t.Copy // for its other choices
	}
	req := sim.Request{ID: id, Arrival: f.arrival, PromptLen: f.prompt, OutputLen: f.out, BlockHashes: hashes, Copy: t.Copy}
	if f.out > 1 {
		f.itl = make([]int64, 0, min(f.out-1, trace.MaxITLGaps)) // the only allocation per token stream
	}
	f.replica = rn.route()
	r := &rn.reps[f.replica]
	if err := r.eng.Add(&req); err != nil {
		return err
	}
	r.load++
	if !r.stepping {
		r.at = max(r.at, f.arrival)
	}
	rn.touch(f.replica)
	return nil
}

// outputLen returns the tokens a turn generates and its finish reason:
// OutputTokens (at least 1), capped by MaxTokens and by room, the tokens
// left in the context. The reason is "length" when a cap or ignore_eos
// ended it, else "stop" (the sampled length stands for the natural end).
func outputLen(t *trace.Turn, room int) (int, string) {
	n := max(t.OutputTokens, 1)
	capped := false
	if t.MaxTokens > 0 && n >= t.MaxTokens {
		n, capped = t.MaxTokens, true
	}
	if n >= room {
		n, capped = room, true
	}
	if capped || t.IgnoreEOS {
		return n, "length"
	}
	return n, "stop"
}

// reject writes the 400 record of a refused request and fails its turn.
func (rn *runner) reject(id uint64, f *flight, cause error) error {
	rec := f.rejected(cause.Error())
	sr, k := f.sr, f.turn
	*f = flight{}
	rn.free = append(rn.free, id)
	if err := rn.sink.Write(&rec); err != nil {
		return fmt.Errorf("writing record: %w", err)
	}
	rn.resolve(sr, k, false)
	return nil
}

// newID returns a free flight slot, growing the table when none is.
func (rn *runner) newID() uint64 {
	if n := len(rn.free); n > 0 {
		id := rn.free[n-1]
		rn.free = rn.free[:n-1]
		return id
	}
	rn.flights = append(rn.flights, flight{})
	return uint64(len(rn.flights) - 1)
}

// pick returns the first non-empty string.
func pick(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
