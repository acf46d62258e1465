package virtual

import (
	"encoding/json"

	"surge/openai"
	"surge/sim"
	"surge/trace"
)

// choicesOf is the n each client's typed options ask for (trace
// ClientInfo.Options), by client, for the clients that ask for more than
// one; options that do not decode ask for one, as the driver refuses
// them before it sends anything.
func choicesOf(h trace.Header) map[string]int {
	out := map[string]int{}
	for _, c := range h.Clients {
		var o openai.Options
		if len(c.Options) > 0 && json.Unmarshal(c.Options, &o) == nil && o.Choices() > 1 {
			out[c.Name] = min(o.Choices(), openai.MaxChoices)
		}
	}
	return out
}

// choices is how many choices turn k of sr generates: its client's n for
// chat and completions, 1 for every other API.
func (rn *runner) choices(sr *sessionRun) int {
	n := rn.nChoices[sr.s.Client]
	if n < 2 || (sr.s.API != "" && sr.s.API != openai.APIChat && sr.s.API != openai.APICompletions) {
		return 1
	}
	return n
}

// addChoices adds choices 1 to n−1 of the flight id to its replica once
// choice 0 has its first token, as the real-time server does: the prompt
// is computed then, so with prefix caching on they share its prefill.
// Each is a flight of its own whose parent is id; it writes no record.
func (rn *runner) addChoices(id uint64) error {
	f := &rn.flights[id]
	n := f.choices
	if n < 2 || f.kids > 0 {
		return nil
	}
	f.choiceTokens = make([]int, n)
	parent, replica, arrival, prompt, out, hashes, cp := id, f.replica, f.arrival, f.prompt, f.out, f.hashes, f.copy
	for c := 1; c < n; c++ {
		kid := rn.newID() // may move the flights: f is stale after it
		rn.flights[kid] = flight{parent: parent + 1, choice: c, replica: replica, arrival: arrival}
		req := sim.Request{ID: kid, Arrival: arrival, PromptLen: prompt, OutputLen: out, BlockHashes: hashes, Copy: cp}
		r := &rn.reps[replica]
		if err := r.eng.Add(&req); err != nil {
			return err
		}
		r.load++
		rn.touch(replica)
		rn.flights[parent].kids++
	}
	return nil
}

// kidEvent applies an event of the choice flight f, a kid of its parent:
// its tokens, and at its end its count in the parent's record, which is
// written once the last of the parent's choices has finished.
func (rn *runner) kidEvent(id uint64, f *flight, ev *sim.Event, r *replica) error {
	switch ev.Kind {
	case sim.EventFirstToken, sim.EventToken:
		f.got, f.last = ev.Tokens, ev.Time
		return nil
	case sim.EventFinished:
	default:
		return nil
	}
	r.load--
	pid := f.parent - 1
	p := &rn.flights[pid]
	p.choiceTokens[f.choice] = f.got
	p.kidsLast = max(p.kidsLast, f.last)
	p.kids--
	*f = flight{}
	rn.free = append(rn.free, id)
	if p.kids == 0 && p.done {
		return rn.finish(pid, p)
	}
	return nil
}

// choiceRecord adds the choices of a request for several to its record:
// every choice's tokens and events, the end at the last choice's last
// token; the token times stay choice 0's, as the driver keeps them.
func (f *flight) choiceRecord(rec *trace.Record) {
	if f.choices < 2 {
		return
	}
	f.choiceTokens[0] = f.out
	sum := 0
	for _, n := range f.choiceTokens {
		sum += n
	}
	rec.Choices, rec.ChoiceTokens, rec.MaxTokens = f.choices, f.choiceTokens, f.sr.s.Turns[f.turn].MaxTokens
	rec.Chunks, rec.ServerOutputTokens = sum, sum
	if f.kidsLast > f.last {
		rec.E2EUS = us(f.kidsLast - f.arrival)
	}
}
