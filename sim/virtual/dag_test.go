package virtual

import (
	"maps"
	"slices"
	"testing"
	"time"

	"surge/trace"
)

// end is the offset at which a record's request finished, in µs.
func endUS(r *trace.Record) int64 { return r.SentUS + r.E2EUS }

// byTurn indexes the records of session idx of client "c" by turn.
func byTurn(recs []trace.Record, idx int) map[int]*trace.Record {
	m := map[int]*trace.Record{}
	for i := range recs {
		if recs[i].Session == idx {
			m[recs[i].Turn] = &recs[i]
		}
	}
	return m
}

// checkDue checks that every turn of s recorded was intended exactly when
// its dependencies had finished plus its wait, or at the session's start
// (start µs) plus its wait when it has none.
func checkDue(t *testing.T, s *trace.Session, start int64, got map[int]*trace.Record) {
	t.Helper()
	for k, r := range got {
		tt := &s.Turns[k]
		due := start
		if deps := tt.Deps(); len(deps) > 0 {
			due = 0
			for _, d := range deps {
				due = max(due, endUS(got[d]))
			}
		}
		if due += tt.WaitUS; r.IntendedUS != due || r.SentUS != due {
			t.Errorf("session %d turn %d intended at %d µs, sent at %d, want both at %d", s.Index, k, r.IntendedUS, r.SentUS, due)
		}
	}
}

// dagSession is a session at 1 ms whose turns form a graph: 0 starts; 1
// continues 0 after 5 ms; 2 starts a conversation 2 ms after 0 ends; 3
// continues 1 once 2 has ended too, after 1 ms; 4 starts 3 ms after the
// session does.
func dagSession() *trace.Session {
	return &trace.Session{Client: "c", Index: 0, AtUS: 1000, Model: "m", Turns: []trace.Turn{
		{InputTokens: 32, OutputTokens: 3},
		{Parent: new(0), WaitUS: 5000, InputTokens: 51, OutputTokens: 2},
		{After: []int{0}, WaitUS: 2000, InputTokens: 20, OutputTokens: 4},
		{Parent: new(1), After: []int{2}, WaitUS: 1000, InputTokens: 60, OutputTokens: 1},
		{WaitUS: 3000, InputTokens: 8, OutputTokens: 1},
	}}
}

// TestDAGOrder follows dagSession through one replica at 1 ms a step.
// Turn 0 prefills in [1,2) ms and ends at 4; turn 4 is due at 1+3 = 4 and
// ends at 5; turn 2 is due at 4+2 = 6 and ends at 10; turn 1 is due at
// 4+5 = 9 and ends at 11; turn 3 is due at max(11, 10)+1 = 12.
func TestDAGOrder(t *testing.T) {
	t.Parallel()
	s := dagSession()
	recs, end := mustRun(t, Config{Cost: stepCost(time.Millisecond)}, header(0), []*trace.Session{s})
	got := byTurn(recs, 0)
	if len(recs) != 5 || len(got) != 5 || end.Sent != 5 || end.Scheduled != 5 {
		t.Fatalf("%d records, end %+v; want all 5 turns sent", len(recs), end)
	}
	checkDue(t, s, s.AtUS, got)
	want := map[int]int64{0: 1000, 1: 9000, 2: 6000, 3: 12000, 4: 4000}
	for k, at := range want {
		if got[k].SentUS != at {
			t.Errorf("turn %d sent at %d µs, want %d", k, got[k].SentUS, at)
		}
	}
	var order []int
	for _, r := range recs {
		order = append(order, r.Turn)
	}
	if !slices.Equal(order, []int{0, 4, 2, 1, 3}) {
		t.Errorf("turns finished in order %v, want [0 4 2 1 3]", order)
	}
}

// TestDAGUnderLoad runs 60 dagSessions, 2 ms apart, on a slow replica
// (10 µs a token) so that turns queue behind other sessions': however
// late a dependency ends, its dependents are due exactly then plus their
// waits.
func TestDAGUnderLoad(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i := range 60 {
		s := dagSession()
		s.Index, s.AtUS = i, int64(i)*2000
		for k := range s.Turns {
			s.Turns[k].InputTokens *= 40 // prefills of 0.3–2.4k tokens
		}
		ss = append(ss, s)
	}
	recs, end := mustRun(t, Config{Cost: tokenCost{}}, header(0), ss)
	if end.Sent != 300 || len(recs) != 300 {
		t.Fatalf("%d records, end %+v; want 300", len(recs), end)
	}
	for _, s := range ss {
		checkDue(t, s, s.AtUS, byTurn(recs, s.Index))
	}
}

// failingSession has a first turn over the context (131,072 tokens by
// default): turn 1 continuing it and turn 2 waiting for turn 1 are not
// sent, while turn 3, independent, and turn 4 after it are.
func failingSession(idx int) *trace.Session {
	return &trace.Session{Client: "c", Index: idx, Model: "m", Turns: []trace.Turn{
		{InputTokens: 200_000, OutputTokens: 2},
		{Parent: new(0), InputTokens: 200_010, OutputTokens: 2},
		{After: []int{1}, InputTokens: 10, OutputTokens: 2},
		{WaitUS: 1000, InputTokens: 10, OutputTokens: 2},
		{After: []int{3}, InputTokens: 10, OutputTokens: 2},
	}}
}

func TestFailedDependencyIsNotSent(t *testing.T) {
	t.Parallel()
	recs, end := mustRun(t, Config{Cost: stepCost(time.Millisecond)}, header(0), []*trace.Session{failingSession(0)})
	got := byTurn(recs, 0)
	if end.Sent != 3 || end.Scheduled != 5 || len(recs) != 3 {
		t.Fatalf("%d records, end %+v; want 3 of 5 turns sent", len(recs), end)
	}
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []int{0, 3, 4}) {
		t.Fatalf("turns %v recorded, want [0 3 4]", keys)
	}
	if r := got[0]; r.Status != 400 || r.ErrorClass != trace.ErrHTTP || !got[3].OK() || !got[4].OK() {
		t.Errorf("turn 0 %+v: want a 400; turns 3 and 4 %+v %+v: want them served", r, got[3], got[4])
	}
	checkDue(t, failingSession(0), 0, got)
}

// TestClosedLoopWaitsForTheWholeSession runs a closed-loop client of
// concurrency 1: a session whose turns fail or are skipped ends at once;
// a conversation with a think time holds its slot through the think time
// and its last turn; only then does the next session start.
func TestClosedLoopWaitsForTheWholeSession(t *testing.T) {
	t.Parallel()
	chat := &trace.Session{Client: "c", Index: 1, Model: "m", Turns: []trace.Turn{
		{InputTokens: 16, OutputTokens: 2},
		{Parent: new(0), WaitUS: 7000, InputTokens: 30, OutputTokens: 3},
	}}
	ss := []*trace.Session{failingSession(0), chat, session(2, time.Hour, 16, 2)}
	ss[0].Turns = ss[0].Turns[:3] // the failing turn and the two it dooms
	recs, end := mustRun(t, Config{Cost: stepCost(time.Millisecond)}, header(1), ss)
	if end.Sent != 4 || len(recs) != 4 {
		t.Fatalf("%d records, end %+v; want 4 sent", len(recs), end)
	}
	c := byTurn(recs, 1)
	checkDue(t, chat, 0, c)
	last := byTurn(recs, 2)[0]
	if c[0].SentUS != 0 || last.SentUS != endUS(c[1]) || c[1].SentUS <= endUS(c[0]) {
		t.Errorf("chat sent at %d and %d µs (first ended at %d), next session at %d; want 0, after the think time, and at the chat's end %d",
			c[0].SentUS, c[1].SentUS, endUS(c[0]), last.SentUS, endUS(c[1]))
	}
}

func TestInvalidSessionIsRefused(t *testing.T) {
	t.Parallel()
	s := session(0, 0, 16, 2)
	s.Turns[0].After = []int{1}
	s.Turns = append(s.Turns, trace.Turn{InputTokens: 16, OutputTokens: 2})
	if _, _, err := newRunner(Config{Cost: stepCost(1)}, header(0), []*trace.Session{s}, &collect{}); err == nil {
		t.Error("a turn depending on a later one was accepted")
	}
}
