package virtual

import (
	"time"

	"surge/trace"
)

// turnState is where a turn of a session in flight stands.
type turnState uint8

const (
	waiting turnState = iota // for its dependencies or its wait
	sent                     // in an engine
	succeeded
	failed // refused by the server, or not sent because a dependency failed
)

// sessionRun is a session in flight: which of its turns wait, run,
// succeeded or failed, and what later turns need of them.
type sessionRun struct {
	s      *trace.Session
	key    uint64 // the session's position in the trace, naming its messages
	client uint64 // names the client's shared system prompts
	loop   int    // closed-loop client, or -1 for open loop
	pinned bool   // later turns carry the trace's replies, not the engine's
	plain  bool   // tests' reference: a message per content block, hashes shared with parents alone
	left   int    // turns neither finished nor failed
	turns  []turnRun
	next   [][]int // next[k]: the turns that depend on turn k; nil for one turn
}

// turnRun is one turn of a session in flight.
type turnRun struct {
	state  turnState
	deps   int // dependencies not yet finished
	out    int // tokens generated: the reply later turns carry under live history
	src    int // the turn whose prompt this one's begins with (see source), or −1
	heirs  int // turns whose src this one is, not yet sent or failed
	hashes []uint64
	// hashes are the block hashes of the turn's prompt, kept while heirs > 0
	// for the turns whose prompts begin with some of the same blocks.
}

// newSessionRun prepares j's session for its turns to be sent; plain runs
// are the tests' reference (see sessionRun.plain).
func newSessionRun(j job, pinned, plain bool) *sessionRun {
	s := j.sess
	sr := &sessionRun{
		s: s, key: uint64(j.key), client: crcString(s.Client),
		loop: j.loop, pinned: pinned, plain: plain, left: len(s.Turns), turns: make([]turnRun, len(s.Turns)),
	}
	if len(s.Turns) > 1 {
		sr.next = make([][]int, len(s.Turns))
	}
	for k := range s.Turns {
		t := &s.Turns[k]
		if sr.turns[k].src = source(s, k, plain); sr.turns[k].src >= 0 {
			sr.turns[sr.turns[k].src].heirs++
		}
		if t.Parent != nil {
			sr.turns[k].deps++
			sr.next[*t.Parent] = append(sr.next[*t.Parent], k)
		}
		for _, d := range t.After {
			sr.turns[k].deps++
			sr.next[d] = append(sr.next[d], k)
		}
	}
	return sr
}

// start begins session j at time at: its turns with no dependencies are
// due then plus their waits, in turn order; those with no wait are sent at
// once, as an open-loop session's first request always was.
func (rn *runner) start(j job, at time.Duration) error {
	sr := newSessionRun(j, rn.pinned[j.sess.Client], rn.plain)
	for k := range sr.s.Turns {
		if sr.turns[k].deps > 0 {
			continue
		}
		if w := sr.s.Turns[k].Wait(); w > 0 {
			rn.sched.push(arrival{at: at + w, sr: sr, turn: k})
			continue
		}
		if err := rn.send(sr, k, at); err != nil {
			return err
		}
	}
	return nil
}

// resolve notes at rn.now that turn k of sr finished, ok or failed: a turn
// whose last dependency it was becomes due after its wait, and every turn
// depending on a failed one fails unsent. When the session has no turn
// left, a closed-loop client starts its next session.
func (rn *runner) resolve(sr *sessionRun, k int, ok bool) {
	sr.turns[k].state = failed
	if ok {
		sr.turns[k].state = succeeded
	}
	sr.left--
	for _, j := range sr.dependents(k) {
		tr := &sr.turns[j]
		switch {
		case tr.state != waiting:
		case !ok:
			sr.skip(j)
		default:
			tr.deps--
			if tr.deps == 0 {
				rn.sched.push(arrival{at: rn.now + sr.s.Turns[j].Wait(), sr: sr, turn: j})
			}
		}
	}
	if sr.left == 0 && sr.loop >= 0 {
		rn.sched.startNext(sr.loop, rn.now)
	}
}

// skip fails waiting turn j unsent, and every waiting turn depending on it.
func (sr *sessionRun) skip(j int) {
	sr.turns[j].state = failed
	sr.left--
	sr.leave(j)
	for _, i := range sr.dependents(j) {
		if sr.turns[i].state == waiting {
			sr.skip(i)
		}
	}
}

// leave notes that turn j no longer needs its source's block hashes, and
// drops them when no turn does.
func (sr *sessionRun) leave(j int) {
	if p := sr.turns[j].src; p >= 0 {
		pr := &sr.turns[p]
		if pr.heirs--; pr.heirs == 0 {
			pr.hashes = nil
		}
	}
}

// dependents returns the turns that depend on turn k.
func (sr *sessionRun) dependents(k int) []int {
	if sr.next == nil {
		return nil
	}
	return sr.next[k]
}
