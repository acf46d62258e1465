package metrics

import (
	"strings"
	"testing"

	"surge/trace"
)

// turn is one request of a session for the tests: intended at at µs
// after a wait of wait µs (for calls tool calls), sent 1 ms later, taking
// e2e µs, with a prompt of ctx tokens as the server counted it.
type turn struct {
	at, wait int64
	calls    int
	e2e      int64
	ctx      int
}

// sessionRecs makes the records of session index of client, turn k from
// turns[k].
func sessionRecs(client string, index int, turns ...turn) []trace.Record {
	var recs []trace.Record
	for k, t := range turns {
		r := okRec(client, t.at, 1000, t.e2e)
		r.Session, r.Turn, r.WaitUS, r.ToolCalls, r.ServerInputTokens = index, k, t.wait, t.calls, t.ctx
		recs = append(recs, r)
	}
	return recs
}

// The sessions of the tests. Each later turn is intended when the turns
// it depends on finished (sent + E2E) plus its wait.
var (
	// A chat of three turns with think times 5 and 3 ms: lag 3 × 1 ms,
	// LLM 10 + 20 + 9 ms.
	chat = sessionRecs("chat", 0,
		turn{at: 0, e2e: 10_000, ctx: 100},
		turn{at: 16_000, wait: 5000, e2e: 20_000, ctx: 250},
		turn{at: 40_000, wait: 3000, e2e: 9000, ctx: 400})
	// An agent: a step, 3 tool calls taking 20 ms, a step that forks a
	// sub-agent (turn 2, after turn 1), and the step joining it (turn 3,
	// after turns 1 and 2), compacted to a shorter prompt.
	agent = sessionRecs("agent", 0,
		turn{at: 0, e2e: 10_000, ctx: 500},
		turn{at: 31_000, wait: 20_000, calls: 3, e2e: 8000, ctx: 900},
		turn{at: 40_000, e2e: 5000, ctx: 300},
		turn{at: 46_000, e2e: 4000, ctx: 200})
	// A batch job starting at 100 ms: three independent requests released
	// 0, 5 and 50 ms after its start; the first two overlap.
	batch = sessionRecs("batch", 0,
		turn{at: 100_000, e2e: 30_000, ctx: 200},
		turn{at: 105_000, wait: 5000, e2e: 30_000, ctx: 200},
		turn{at: 150_000, wait: 50_000, e2e: 10_000, ctx: 200})
)

// with returns a copy of recs with f applied to record k.
func with(recs []trace.Record, k int, f func(*trace.Record)) []trace.Record {
	out := append([]trace.Record(nil), recs...)
	f(&out[k])
	return out
}

// reindexed returns a copy of recs moved to session index.
func reindexed(recs []trace.Record, index int) []trace.Record {
	out := append([]trace.Record(nil), recs...)
	for i := range out {
		out[i].Session = index
	}
	return out
}

func TestSessionFigures(t *testing.T) {
	t.Parallel()
	noUsage := with(batch, 0, func(r *trace.Record) { r.ServerInputTokens, r.ClientInputTokens = 0, 230 })
	tests := []struct {
		name                             string
		recs                             []trace.Record
		duration, llm, busy, tool, think float64
		requests, context                float64
		reason                           string
	}{
		{"chat", chat, 50_000, 39_000, 39_000, 0, 8000, 3, 400,
			"one turn after another: duration = Σ lag 3 + LLM 39 + think 8 ms"},
		{"agent", agent, 51_000, 27_000, 27_000, 20_000, 0, 4, 900,
			"tool calls' latency is tool time; turns after a join wait 0; the context peaks before compaction"},
		{"batch", batch, 61_000, 70_000, 45_000, 0, 0, 3, 200,
			"release offsets are neither think nor tool time; overlapping requests count twice in LLM, once in busy"},
		{"batch without usage", noUsage, 61_000, 70_000, 45_000, 0, 0, 3, 230,
			"without usage.prompt_tokens the context is surge's own count"},
	}
	for _, tt := range tests {
		s := Summarize(records(nil, tt.recs...), Options{})
		ss := s.All.Sessions
		if ss == nil {
			t.Fatalf("%s: no sessions summary", tt.name)
		}
		if ss.Sessions != 1 || ss.Complete != 1 {
			t.Errorf("%s: %d sessions, %d complete; want 1, 1", tt.name, ss.Sessions, ss.Complete)
		}
		want := []float64{tt.duration, tt.requests, tt.llm, tt.busy, tt.tool, tt.think, tt.context}
		for i, m := range ss.Metrics() {
			if m.N != 1 || m.Mean != want[i] {
				t.Errorf("%s: %s n %d mean %v, want 1 and %v (%s)", tt.name, m.Name, m.N, m.Mean, want[i], tt.reason)
			}
		}
	}
}

func TestSessionCounts(t *testing.T) {
	t.Parallel()
	failed := with(chat, 1, func(r *trace.Record) { r.ErrorClass, r.Status = trace.ErrTimeout, 0 })[:2]
	dropped := with(chat, 2, func(r *trace.Record) { r.ErrorClass, r.SentUS, r.E2EUS = trace.ErrDropped, 0, 0 })
	gap := []trace.Record{chat[0], chat[2]}
	warm := with(chat, 0, func(r *trace.Record) { r.Warmup = true })
	single := sessionRecs("chat", 9, turn{at: 0, e2e: 1000})
	tests := []struct {
		name                                       string
		recs                                       []trace.Record
		sessions, complete, failed, incomplete, wu int
		reason                                     string
	}{
		{"complete", chat, 1, 1, 0, 0, 0, "every turn 0…2 recorded and ok"},
		{"failed", failed, 1, 0, 1, 0, 0, "a timed-out turn fails the session; its later turns were never sent"},
		{"dropped", dropped, 1, 0, 1, 0, 0, "a turn shed at the concurrency cap fails it too"},
		{"missing turn", gap, 1, 0, 0, 1, 0, "turn 1 has no record"},
		{"warmup", append(warm, reindexed(chat, 1)...), 1, 1, 0, 0, 1, "first request warmup: left out whole, though its later turns are measured"},
		{"mixed", append(append(append([]trace.Record(nil), agent...), batch...), append(failed, single...)...), 4, 3, 1, 0, 0,
			"a single-request session counts once some session has several"},
	}
	for _, tt := range tests {
		ss := Summarize(records(nil, tt.recs...), Options{}).All.Sessions
		if ss == nil {
			t.Fatalf("%s: no sessions summary", tt.name)
		}
		got := []int{ss.Sessions, ss.Complete, ss.Failed, ss.Incomplete, ss.Warmup}
		want := []int{tt.sessions, tt.complete, tt.failed, tt.incomplete, tt.wu}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: sessions/complete/failed/incomplete/warmup %v, want %v (%s)", tt.name, got, want, tt.reason)
				break
			}
		}
		if ss.Duration.N != tt.complete {
			t.Errorf("%s: duration n %d, want %d: only complete sessions are described", tt.name, ss.Duration.N, tt.complete)
		}
	}
}

func TestSessionsPresence(t *testing.T) {
	t.Parallel()
	singles := append(sessionRecs("rag", 0, turn{at: 0, e2e: 1000}), sessionRecs("rag", 1, turn{at: 0, e2e: 1000})...)
	warmChat := append([]trace.Record(nil), chat...)
	for i := range warmChat {
		warmChat[i].Warmup = true
	}
	tests := []struct {
		name           string
		recs           []trace.Record
		all, chat, rag bool
		reason         string
	}{
		{"single requests", singles, false, false, false, "no session has two requests: reports stay as they were"},
		{"warmup chat only", append(warmChat, singles...), false, false, false, "the only multi-turn session is warmup"},
		{"chat and rag", append(append([]trace.Record(nil), chat...), singles...), true, true, false, "per client: rag's sessions are all single requests"},
	}
	for _, tt := range tests {
		s := Summarize(records(nil, tt.recs...), Options{PerClient: true})
		got := map[string]bool{"": s.All.Sessions != nil}
		for _, c := range s.Clients {
			got[c.Client] = c.Sessions != nil
		}
		if got[""] != tt.all || got["chat"] != tt.chat || got["rag"] != tt.rag {
			t.Errorf("%s: present all %v chat %v rag %v; want %v %v %v (%s)",
				tt.name, got[""], got["chat"], got["rag"], tt.all, tt.chat, tt.rag, tt.reason)
		}
	}
}

// TestSessionSteps: opening turns and later turns are apart, whatever
// their turn numbers.
func TestSessionSteps(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for _, s := range [][]trace.Record{chat, agent, batch} {
		for k, r := range s {
			r.TTFTUS, r.TTFOUS = 100_000+int64(k), 200_000+int64(k)
			r.ITLUS = []int64{1000 * int64(k+1)}
			recs = append(recs, r)
		}
	}
	recs[1].TTFOUS = 0 // chat turn 1 never answered
	failed := with(chat, 2, func(r *trace.Record) { r.ErrorClass, r.Session = trace.ErrHTTP, 7 })[2]
	ss := Summarize(records(nil, append(recs, failed)...), Options{}).All.Sessions
	tests := []struct {
		m            *Metric
		n, undefined int
		min, max     float64
		reason       string
	}{
		{&ss.TTFTFirst, 5, 0, 100_000, 100_002, "turn 0 of chat and agent, all three batch requests"},
		{&ss.TTFTLater, 5, 0, 100_001, 100_003, "chat turns 1–2, agent turns 1–3 (the sub-agent's first turn included)"},
		{&ss.TTFOFirst, 5, 0, 200_000, 200_002, "as TTFT"},
		{&ss.TTFOLater, 4, 1, 200_001, 200_003, "chat turn 1 has no answer token"},
		{&ss.ITLFirst, 5, 0, 1000, 3000, "one gap per opening turn: 1 ms for turns 0, 2 and 3 ms for batch turns 1 and 2"},
		{&ss.ITLLater, 5, 0, 2000, 4000, "one gap per later turn; the failed request is out"},
	}
	for _, tt := range tests {
		if tt.m.N != tt.n || tt.m.Undefined != tt.undefined || tt.m.Min != tt.min || tt.m.Max != tt.max {
			t.Errorf("%s: n %d undefined %d min %v max %v; want %d %d %v %v (%s)",
				tt.m.Name, tt.m.N, tt.m.Undefined, tt.m.Min, tt.m.Max, tt.n, tt.undefined, tt.min, tt.max, tt.reason)
		}
	}
}

func TestBusy(t *testing.T) {
	t.Parallel()
	rec := func(sent, e2e int64) *trace.Record { return &trace.Record{SentUS: sent, E2EUS: e2e} }
	drop := &trace.Record{SentUS: 0, E2EUS: 1000, ErrorClass: trace.ErrDropped}
	tests := []struct {
		recs   []*trace.Record
		want   int64
		reason string
	}{
		{[]*trace.Record{rec(0, 10)}, 10, "one request"},
		{[]*trace.Record{rec(20, 10), rec(0, 10)}, 20, "disjoint, out of order"},
		{[]*trace.Record{rec(0, 10), rec(5, 10)}, 15, "overlapping: [0, 15)"},
		{[]*trace.Record{rec(0, 100), rec(10, 10), rec(50, 10)}, 100, "nested in the first"},
		{[]*trace.Record{rec(0, 10), rec(10, 10)}, 20, "touching"},
		{[]*trace.Record{rec(100, 10), drop}, 10, "a dropped request was never in flight"},
		{[]*trace.Record{drop}, 0, "nothing in flight"},
	}
	c := &calc{}
	for _, tt := range tests {
		if got := c.busy(tt.recs); got != tt.want {
			t.Errorf("busy = %d, want %d (%s)", got, tt.want, tt.reason)
		}
	}
}

func TestSessionNote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		end    *trace.RunEnd
		want   string
		reason string
	}{
		{&trace.RunEnd{Scheduled: 10, Sent: 9, Dropped: 1}, "", "every planned request sent or dropped"},
		{&trace.RunEnd{Scheduled: 10, Sent: 7, Dropped: 1}, "2 planned requests were never sent", "the end line's counts show unsent turns"},
		{&trace.RunEnd{Scheduled: 10, Sent: 9}, "1 planned request was never sent", "singular"},
		{&trace.RunEnd{Scheduled: 10, Sent: 2, Interrupted: true}, "interrupted", "an interrupt stops sessions between turns"},
		{nil, "no end line", "a killed run may have stopped sessions anywhere"},
	}
	for _, tt := range tests {
		got := sessionNote(tt.end)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("note %q, want one with %q (%s)", got, tt.want, tt.reason)
		}
	}
}

// TestSessionDeadlines checks the batch deadline count: the job starting
// at 100 ms ends 61 ms after its start (its last request, released at
// 50 ms, takes 10 ms after a 1 ms send), so a deadline of 61 ms is met and
// one of 59 ms is not.
func TestSessionDeadlines(t *testing.T) {
	t.Parallel()
	deadline := func(recs []trace.Record, us int64) []trace.Record {
		out := append([]trace.Record(nil), recs...)
		for i := range out {
			out[i].DeadlineUS = us
		}
		return out
	}
	recs := append(deadline(batch, 61_000), reindexed(deadline(batch, 59_000), 1)...)
	ss := Summarize(records(nil, append(recs, chat...)...), Options{}).All.Sessions
	if ss.Deadlines != 2 || ss.DeadlinesMet != 1 {
		t.Errorf("deadlines %d, met %d; want 2 jobs with deadlines, 1 met", ss.Deadlines, ss.DeadlinesMet)
	}
}
