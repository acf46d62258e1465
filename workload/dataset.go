package workload

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"surge/content"
	"surge/content/dataset"
	"surge/spec"
	"surge/trace"
)

// datasetStream labels the RNG that shuffles a client's dataset.
const datasetStream uint64 = 0x64617461 // "data"

// prompts is a client's dataset as its sessions draw from it: entries in
// sending order, taken one per session and passed over when they do not
// serve (outside min_input..max_input, no reply for output: dataset, no
// exact fit), starting again from the first after the last.
//
// Session i takes the i-th entry that serves, so sessions must be built
// in index order, as Generate does; a session's prompt then depends only
// on (seed, client, index) and the file.
type prompts struct {
	set     *dataset.Set
	ds      *spec.Dataset
	order   []int32 // entry indexes in sending order
	counts  []int32 // prompt tokens of each entry, plus 1; 0: not counted yet
	replies []int32 // reply tokens likewise
	next    int     // position in order of the next entry to try
	wrapped bool    // every entry has been tried once
	index   int     // the session index expected next
	sent    int     // sessions served
	// Entries passed over, by reason: filtered and noReply count entries
	// (they are passed over each time for the same reason), unfit counts
	// tries (it depends on the length drawn).
	filtered, unfit, noReply int
}

// newPrompts prepares the dataset of client c read as set.
func newPrompts(seed uint64, c *client, set *dataset.Set) (*prompts, error) {
	n := len(set.Entries)
	p := &prompts{set: set, ds: c.Dataset, order: make([]int32, n), counts: make([]int32, n), replies: make([]int32, n)}
	for i := range p.order {
		p.order[i] = int32(i)
	}
	if c.Dataset.Order == spec.OrderShuffle {
		r := rand.New(rand.NewPCG(mix(seed^datasetStream), mix(c.key)))
		r.Shuffle(n, func(i, j int) { p.order[i], p.order[j] = p.order[j], p.order[i] })
	}
	if c.Dataset.Replies && !hasReplies(set) {
		return nil, fmt.Errorf("output: dataset, but %s records no replies: give output a length, like output: 256", set.Name)
	}
	return p, nil
}

// hasReplies reports whether any entry of set records a reply.
func hasReplies(set *dataset.Set) bool {
	for i := range set.Entries {
		if set.Entries[i].Turns[0].Reply != "" {
			return true
		}
	}
	return false
}

// rewind starts p again from its first entry, for another generation.
func (p *prompts) rewind() {
	p.next, p.index, p.sent, p.filtered, p.unfit, p.noReply, p.wrapped = 0, 0, 0, 0, 0, 0, false
}

// count returns the tokens of text, cached in cache[i].
func count(tok content.Tokenizer, cache []int32, i int, text string) int {
	if cache[i] == 0 {
		cache[i] = int32(len(tok.Encode(text))) + 1
	}
	return int(cache[i]) - 1
}

// datasetTurn builds the turn of session index of client c from its
// dataset: the next entry that serves, its prompt fitted to a length
// drawn from the input law unless fit is keep.
func (b *builder) datasetTurn(c *client, index int) (trace.Turn, error) {
	want := 0
	if c.data.ds.Fit != spec.FitKeep {
		want = tokens(c.Input.Sample(b.rng))
	}
	out := 0
	if !c.data.ds.Replies {
		out = tokens(c.Output.Sample(b.rng))
	}
	sysID, sys := b.system(c)
	var t trace.Turn
	err := c.data.take(index, want, func(i int) (ok bool) {
		t, ok = b.entryTurn(c, i, want, out)
		return ok
	})
	if err == nil && sys != nil {
		t.SystemID, t.SystemTokens, t.System = sysID, sys.tokens, sys.text
		t.InputTokens += sys.tokens
	}
	return t, err
}

// take serves session index with the next entry for which serve returns
// true, trying each entry at most once; want is the length drawn, for
// the error when none serves.
func (p *prompts) take(index, want int, serve func(i int) bool) error {
	if index != p.index {
		return fmt.Errorf("dataset session %d built out of order (want %d)", index, p.index)
	}
	p.index++
	for range len(p.order) {
		i := int(p.order[p.next])
		p.next = (p.next + 1) % len(p.order)
		ok := serve(i)
		p.wrapped = p.wrapped || p.next == 0 // after serve, which counts the last entry's first try
		if ok {
			p.sent++
			return nil
		}
	}
	return p.exhausted(want)
}

// once is 1 until every entry has been tried, then 0: what counts an
// entry passed over for a reason of its own.
func (p *prompts) once() int {
	if p.wrapped {
		return 0
	}
	return 1
}

// inRange reports whether a prompt of n tokens is within min_input and
// max_input, counting it as filtered if not.
func (p *prompts) inRange(n int) bool {
	if n < p.ds.MinInput || (p.ds.MaxInput > 0 && n > p.ds.MaxInput) {
		p.filtered += p.once()
		return false
	}
	return true
}

// entryTurn is the turn of entry i of c's dataset, for a prompt of want
// tokens (0: as it is) and an output of out (0: the entry's reply's), or
// false when the entry does not serve, counted by why.
func (b *builder) entryTurn(c *client, i, want, out int) (trace.Turn, bool) {
	p, e := c.data, &c.data.set.Entries[i]
	text := e.Turns[0].Prompt
	have := count(b.g.tok, p.counts, i, text)
	if !p.inRange(have) {
		return trace.Turn{}, false
	}
	if out == 0 {
		if e.Turns[0].Reply == "" {
			p.noReply += p.once()
			return trace.Turn{}, false
		}
		out = max(1, count(b.g.tok, p.replies, i, e.Turns[0].Reply))
	}
	prompt, n, ok := b.fit(c, text, have, want)
	if !ok {
		p.unfit++
		return trace.Turn{}, false
	}
	t := b.lengthsTurn(c, n, out)
	t.Style, t.Language = "", "" // the dataset's text, not a synthesised style
	if !b.g.noText {
		t.Prompt = prompt
	}
	b.entrySystem(c, e, &t)
	return t, true
}

// entrySystem gives t, the first turn of a session from entry e, e's
// system prompt, unless c has a pool of its own.
func (b *builder) entrySystem(c *client, e *dataset.Entry, t *trace.Turn) {
	if e.System == "" || c.pool != nil {
		return
	}
	t.SystemTokens = len(b.g.tok.Encode(e.System))
	t.InputTokens += t.SystemTokens
	if !b.g.noText {
		t.System = e.System
	}
}

// fit returns text of have tokens made exactly want tokens long as the
// client's fit allows, and its length; want 0 keeps it as it is.
func (b *builder) fit(c *client, text string, have, want int) (string, int, bool) {
	f := c.data.ds.Fit
	switch {
	case want == 0 || have == want:
		return text, have, true
	case have > want && (f == spec.FitTrim || f == spec.FitExact):
		s, ok := content.Trim(b.g.tok, text, want)
		return s, want, ok
	case have < want && (f == spec.FitPad || f == spec.FitExact):
		s, ok := content.Pad(b.g.tok, b.g.synth, b.rng, c.text.style, text, have, want)
		return s, want, ok
	}
	return "", 0, false
}

// exhausted is the error of a session no entry serves.
func (p *prompts) exhausted(want int) error {
	msg := fmt.Sprintf("no prompt of %s serves", p.set.Name)
	if want > 0 {
		msg = fmt.Sprintf("no prompt of %s can be made exactly %d tokens (fit %s)", p.set.Name, want, p.ds.Fit)
	}
	return errors.New(msg + ": " + p.passedOver() + "; widen min_input/max_input, or change input or fit")
}

// passedOver says how many entries were passed over, and why.
func (p *prompts) passedOver() string {
	return fmt.Sprintf("%d outside min_input..max_input, %d without a reply, %d times not fitted exactly", p.filtered, p.noReply, p.unfit)
}

// warnings are the caveats of a client's dataset after generation.
func (p *prompts) warnings(name string) []error {
	var out []error
	if p.filtered+p.noReply+p.unfit > 0 {
		out = append(out, fmt.Errorf("client %q: dataset %s: prompts passed over: %s", name, p.set.Name, p.passedOver()))
	}
	if p.sent > len(p.order) {
		out = append(out, fmt.Errorf("client %q: dataset %s has %d prompts for %d sessions: prompts repeat", name, p.set.Name, len(p.order), p.sent))
	}
	return out
}

// info is the trace header's record of the dataset.
func (p *prompts) info() *trace.Dataset {
	return &trace.Dataset{Path: p.ds.Path, Format: string(p.set.Format), Hash: p.set.Hash, Fit: p.ds.Fit}
}
