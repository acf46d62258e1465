package conformance

import (
	"os"
	"reflect"
	"testing"
	"time"

	"surge/openai"
	"surge/trace"
)

// roundingUS is how far apart, in µs, two offsets may be that the sides
// round from the same instants: each record rounds its send and its
// latency apart.
const roundingUS = 2

// strictLateUS bounds, under SURGE_STRICT_TIMING, how late after its due
// instant the driver may send a turn.
const strictLateUS = 50_000

// checkSent checks that o sent exactly the turns docs/trace.md says: a
// turn is sent if and only if every turn it depends on was sent and
// succeeded, and nothing else is recorded.
func checkSent(t *testing.T, w *workloadOf, o outcome) {
	t.Helper()
	for k := range o.recs {
		if _, tu := w.turn(k); tu == nil {
			t.Errorf("%s: a record of %v, which the trace does not have", o.side, k)
		}
	}
	for _, s := range w.sessions {
		for i := range s.Turns {
			k := key{s.Client, s.Index, i}
			want := true
			for _, d := range s.Turns[i].Deps() {
				dr, ok := o.recs[key{s.Client, s.Index, d}]
				want = want && ok && dr.OK()
			}
			rec, got := o.recs[k]
			switch {
			case got && !want:
				t.Errorf("%s: turn %v was sent although a turn it depends on (%v) failed or was not sent", o.side, k, s.Turns[i].Deps())
			case !got && want:
				t.Errorf("%s: turn %v was not sent although every turn it depends on (%v) succeeded", o.side, k, s.Turns[i].Deps())
			case got && rec.ErrorClass != "" && rec.ErrorClass != trace.ErrHTTP:
				t.Errorf("%s: turn %v failed with %s (%s): only refusals are expected", o.side, k, rec.ErrorClass, rec.Error)
			}
			if o.sent != nil && got != (o.sent[k] != nil) {
				t.Errorf("%s: turn %v has a record: %v, went to the client: %v", o.side, k, got, o.sent[k] != nil)
			}
		}
	}
}

// checkSame checks that the two sides sent the same turns, with the same
// outcome and the same requested output length.
func checkSame(t *testing.T, a, b outcome) {
	t.Helper()
	for k, ra := range a.recs {
		rb, ok := b.recs[k]
		switch {
		case !ok:
			t.Errorf("turn %v: the %s sent it, the %s did not", k, a.side, b.side)
		case ra.Status != rb.Status || ra.ErrorClass != rb.ErrorClass:
			t.Errorf("turn %v: status %d %q in the %s, %d %q in the %s", k, ra.Status, ra.ErrorClass, a.side, rb.Status, rb.ErrorClass, b.side)
		case ra.OutputTokens != rb.OutputTokens || ra.ReasoningTokens != rb.ReasoningTokens:
			t.Errorf("turn %v: output_tokens %d (reasoning %d) in the %s, %d (%d) in the %s", k, ra.OutputTokens, ra.ReasoningTokens, a.side, rb.OutputTokens, rb.ReasoningTokens, b.side)
		case ra.WaitUS != rb.WaitUS || ra.ToolCalls != rb.ToolCalls:
			t.Errorf("turn %v: wait %d µs and %d tool calls in the %s, %d and %d in the %s", k, ra.WaitUS, ra.ToolCalls, a.side, rb.WaitUS, rb.ToolCalls, b.side)
		}
	}
	for k := range b.recs {
		if _, ok := a.recs[k]; !ok {
			t.Errorf("turn %v: the %s sent it, the %s did not", k, b.side, a.side)
		}
	}
}

// checkOrder checks that every turn o sent went out once its dependencies
// had finished and its wait had passed, and a turn with none at its
// session's start plus its wait (open loop), by the records:
//
//	intended_k ≥ max over deps d of (sent_d + e2e_d) + wait_k
//
// In virtual time it must be equal (within rounding); in real time it may
// be later, by at most strictLateUS under SURGE_STRICT_TIMING. For the
// driver the client's own calls are checked too: turn k's call starts at
// least wait_k after every dependency's call returned.
func checkOrder(t *testing.T, w *workloadOf, o outcome, exact bool) {
	t.Helper()
	strict := os.Getenv("SURGE_STRICT_TIMING") != ""
	closed := map[string]bool{}
	for _, c := range w.header.Clients {
		closed[c.Name] = c.Concurrency > 0
	}
	for k, rec := range o.recs {
		s, tu := w.turn(k)
		if tu == nil {
			continue
		}
		deps := tu.Deps()
		if len(deps) == 0 {
			if want := s.AtUS + tu.WaitUS; !closed[k.client] && rec.IntendedUS != want {
				t.Errorf("%s: turn %v intended at %d µs, want the session's start %d + its wait %d", o.side, k, rec.IntendedUS, s.AtUS, tu.WaitUS)
			}
			continue
		}
		var ready int64
		for _, d := range deps {
			dk := key{k.client, k.session, d}
			dr := o.recs[dk]
			ready = max(ready, dr.SentUS+dr.E2EUS)
			if o.sent != nil && o.sent[k] != nil && o.sent[dk] != nil {
				if gap := o.sent[k].called.Sub(o.sent[dk].returned); gap < tu.Wait() {
					t.Errorf("%s: turn %v went to the client %v after turn %v came back, before its wait of %v", o.side, k, gap, dk, tu.Wait())
				}
			}
		}
		due := ready + tu.WaitUS
		switch late := rec.IntendedUS - due; {
		case late < -roundingUS:
			t.Errorf("%s: turn %v intended at %d µs, %d µs before it was due: its dependencies %v finished at %d µs and its wait is %d µs", o.side, k, rec.IntendedUS, -late, deps, ready, tu.WaitUS)
		case exact && late > roundingUS:
			t.Errorf("%s: turn %v intended at %d µs, %d µs after it was due: its dependencies %v finished at %d µs and its wait is %d µs", o.side, k, rec.IntendedUS, late, deps, ready, tu.WaitUS)
		case !exact && strict && late > strictLateUS:
			t.Errorf("%s: turn %v intended %v after its dependencies finished plus its wait", o.side, k, time.Duration(late)*time.Microsecond)
		}
		if rec.SentUS < rec.IntendedUS-roundingUS {
			t.Errorf("%s: turn %v sent at %d µs, before it was due at %d µs", o.side, k, rec.SentUS, rec.IntendedUS)
		}
	}
}

// answer is the tokens of turn p's reply a later turn carries: its output
// less the reasoning, which clients do not carry forward.
func answer(out, reasoning int) int { return out - min(out, reasoning) }

// wantPrompt is the prompt length turn k of o's run sends by
// docs/trace.md: the trace's count, corrected along its chain of parents
// for replies of other lengths than planned (live history only):
//
//	prompt_k = InputTokens_k + Σ over ancestors p of (answer_p as generated − answer_p as planned)
func wantPrompt(s *trace.Session, k int, o outcome, pinned bool) int {
	n := s.Turns[k].InputTokens
	if pinned {
		return n
	}
	for p := s.Turns[k].Parent; p != nil; p = s.Turns[*p].Parent {
		pt := &s.Turns[*p]
		got := o.recs[key{s.Client, s.Index, *p}].ServerOutputTokens
		n += answer(got, pt.ReasoningTokens) - answer(pt.OutputTokens, pt.ReasoningTokens)
	}
	return n
}

// checkTokens checks each record's token counts: the prompt length sent
// (surge's count and, for an answered request, the engine's) is the one
// docs/trace.md prescribes, and input_tokens says it (docs/records.md);
// the output asked for is the trace's, and with exact outputs the engine
// generated it.
func checkTokens(t *testing.T, w *workloadOf, o outcome, pinned, exactOut bool) {
	t.Helper()
	for k, rec := range o.recs {
		s, tu := w.turn(k)
		if tu == nil {
			continue
		}
		want := wantPrompt(s, k.turn, o, pinned)
		if rec.ClientInputTokens != want || rec.InputTokens != want {
			t.Errorf("%s: turn %v: client_input_tokens %d, input_tokens %d; want %d (the trace's %d, corrected for live replies)", o.side, k, rec.ClientInputTokens, rec.InputTokens, want, tu.InputTokens)
		}
		if rec.OK() && rec.ServerInputTokens != want {
			t.Errorf("%s: turn %v: the engine saw %d prompt tokens, want %d", o.side, k, rec.ServerInputTokens, want)
		}
		if rec.OutputTokens != tu.OutputTokens || rec.ReasoningTokens != tu.ReasoningTokens {
			t.Errorf("%s: turn %v: output_tokens %d (reasoning %d), the trace's %d (%d)", o.side, k, rec.OutputTokens, rec.ReasoningTokens, tu.OutputTokens, tu.ReasoningTokens)
		}
		if exactOut && rec.OK() && rec.ServerOutputTokens != tu.OutputTokens {
			t.Errorf("%s: turn %v: the engine generated %d tokens, the trace asks for exactly %d", o.side, k, rec.ServerOutputTokens, tu.OutputTokens)
		}
	}
}

// wantMessages is the messages turn k sends by docs/trace.md: for a turn
// starting a conversation its system prompt (if any) and prompt, the
// first of them salted; for a turn continuing one its parent's messages,
// the parent's reply (the trace's when pinned, else the one the server
// sent) and its prompt.
func wantMessages(c contentOf, s *trace.Session, k int, o outcome, pinned bool) []openai.Message {
	tu := &s.Turns[k]
	user := openai.Message{Role: "user", Content: tu.Prompt}
	if tu.Parent == nil {
		if tu.System == "" {
			user.Content = c.salted(o.salt, user.Content)
			return []openai.Message{user}
		}
		return []openai.Message{{Role: "system", Content: c.salted(o.salt, tu.System)}, user}
	}
	p := *tu.Parent
	reply := s.Turns[p].Reply
	if !pinned {
		if ps := o.sent[key{s.Client, s.Index, p}]; ps != nil {
			reply = ps.text
		}
	}
	return append(wantMessages(c, s, p, o, pinned), openai.Message{Role: "assistant", Content: reply}, user)
}

// checkMessages checks the bytes the driver sent for each turn against
// wantMessages, and that a pinned reply has the planned answer's length,
// the one the virtual run carries.
func checkMessages(t *testing.T, c contentOf, w *workloadOf, o outcome, pinned bool) {
	t.Helper()
	for k, sn := range o.sent {
		s, tu := w.turn(k)
		if tu == nil {
			continue
		}
		if want := wantMessages(c, s, k.turn, o, pinned); !reflect.DeepEqual(sn.msgs, want) {
			t.Errorf("%s: turn %v sent %d messages that are not the conversation so far (%d messages)", o.side, k, len(sn.msgs), len(want))
		}
		if sn.maxTokens != tu.MaxTokens {
			t.Errorf("%s: turn %v asked for max_tokens %d, the trace's %d", o.side, k, sn.maxTokens, tu.MaxTokens)
		}
		if pinned && tu.Parent != nil {
			pt := &s.Turns[*tu.Parent]
			if n, want := c.count(pt.Reply), answer(pt.OutputTokens, pt.ReasoningTokens); n != want {
				t.Errorf("turn %v: the pinned reply of turn %d is %d tokens, its planned answer %d", k, *tu.Parent, n, want)
			}
		}
	}
}

// checkClosedLoop checks that no closed-loop client of w had more sessions
// in flight than its concurrency in o's run: when a session started (its
// first turns' intended instant less their waits), fewer than that many
// of the client's other sessions had started and not yet finished (their
// last turn's end).
func checkClosedLoop(t *testing.T, w *workloadOf, o outcome) {
	t.Helper()
	type span struct{ start, end int64 }
	spans := map[string]map[int]*span{}
	for k, rec := range o.recs {
		_, tu := w.turn(k)
		if tu == nil {
			continue
		}
		if spans[k.client] == nil {
			spans[k.client] = map[int]*span{}
		}
		sp := spans[k.client][k.session]
		if sp == nil {
			sp = &span{start: rec.IntendedUS, end: rec.SentUS + rec.E2EUS}
			spans[k.client][k.session] = sp
		}
		if len(tu.Deps()) == 0 {
			sp.start = min(sp.start, rec.IntendedUS-tu.WaitUS)
		}
		sp.end = max(sp.end, rec.SentUS+rec.E2EUS)
	}
	for _, c := range w.header.Clients {
		if c.Concurrency <= 0 {
			continue
		}
		for i, a := range spans[c.Name] {
			busy := 0
			for j, b := range spans[c.Name] {
				if j != i && b.start <= a.start && b.end > a.start+roundingUS {
					busy++
				}
			}
			if busy >= c.Concurrency {
				t.Errorf("%s: session %s/%d started at %d µs with %d others in flight, concurrency %d", o.side, c.Name, i, a.start, busy, c.Concurrency)
			}
		}
	}
}
