package metrics

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"surge/trace"
)

// TokenAudit compares the token counts of a scope's successful measured
// requests: for input, requested (the trace) → client (what surge
// counted in the text it sent) → server (usage.prompt_tokens); for
// output, requested (max tokens) → server (usage.completion_tokens) and →
// chunks (token-bearing stream events), and server → chunks.
type TokenAudit struct {
	Comparisons []Comparison `json:"comparisons"`
	// NotStreamed counts the successful requests answered whole (not
	// streamed): they have no token events, so no comparison with chunks
	// counts them.
	NotStreamed int `json:"not_streamed,omitempty"`
	// UsageDropped counts the successful requests whose server counts
	// surge dropped as impossible (trace.Record.UsageDropped): they are
	// left out of the comparisons with the server's counts.
	UsageDropped int `json:"usage_dropped,omitempty"`
	// WithTools counts the successful requests that sent tool
	// definitions (trace.Record.ToolSchemaTokens): the server's
	// prompt_tokens hold them as its chat template renders them, which
	// surge cannot count, so they are left out of the client→server
	// comparison. ToolSchemaTokens is surge's own count of their JSON.
	WithTools        int   `json:"with_tools,omitempty"`
	ToolSchemaTokens int64 `json:"tool_schema_tokens,omitempty"`
	// CalledTools counts those of them whose reply called tools, and
	// ToolCalls the calls their replies made in all
	// (trace.Record.ServerToolCalls).
	CalledTools int   `json:"called_tools,omitempty"`
	ToolCalls   int64 `json:"tool_calls,omitempty"`
	// WithImages counts the successful requests that sent images: the
	// server's prompt_tokens hold the images' tokens by its own
	// processor, so they are left out of the client→server comparison.
	WithImages int `json:"with_images,omitempty"`
	// Choices sums up the requests for several choices, nil when there
	// were none.
	Choices *ChoiceTokens `json:"choices,omitempty"`
	// Findings are the comparisons that disagree, in words that name the
	// cause.
	Findings []string `json:"findings,omitempty"`
}

// Causes of a comparison's disagreements (Comparison.Cause).
const (
	// CauseTemplate: the server's prompt count differs from surge's by a
	// constant per request of a client, or by that plus a constant per
	// earlier turn (Comparison.Template): the chat template's tokens (and
	// BOS) around each message.
	CauseTemplate = "chat_template"
	// CauseReplies: only later turns of sessions disagree, so the
	// difference lies in the replies they re-send: a reply's text
	// re-tokenized does not give the count the server generated, or the
	// template rewrites the history's replies.
	CauseReplies = "reply_retokenization"
	// CauseTokenizer: the counts differ by varying amounts on opening
	// turns: the server tokenizes with another tokenizer than surge's.
	CauseTokenizer = "tokenizer"
	// CauseSynthesis: surge's prompts were not of the requested length on
	// opening turns.
	CauseSynthesis = "prompt_synthesis"
	// CauseEOS: completion_tokens is the event count + 1 on requests that
	// stopped: the server counts the end-of-sequence token it does not
	// stream.
	CauseEOS = "eos_counted"
	// CauseCoalesced: fewer events than tokens beyond an EOS: the server
	// puts several tokens in one event.
	CauseCoalesced = "several_tokens_per_event"
	// CauseStopped: fewer tokens than max tokens, ending with
	// finish_reason stop.
	CauseStopped = "stopped"
	// CauseMixed: several of the causes above.
	CauseMixed = "mixed"
	// CauseUnexplained: none of the causes above.
	CauseUnexplained = "unexplained"
)

// Comparison is one pair of token counts, From and To, over the N
// successful requests that have both. Differences are To − From.
type Comparison struct {
	Name     string `json:"name"` // "input requested→client"
	N        int    `json:"n"`
	Disagree int    `json:"disagree"`
	Fewer    int    `json:"fewer"` // To < From
	More     int    `json:"more"`  // To > From
	// Stopped counts the Fewer requests that ended with finish_reason
	// "stop": the model chose to end, so fewer tokens than requested is
	// legitimate unless the workload demanded ignore_eos.
	Stopped    int     `json:"stopped,omitempty"`
	MeanDiff   float64 `json:"mean_diff"` // mean of To − From over all N
	MaxAbsDiff int     `json:"max_abs_diff"`
	// RelP50, RelP90 and RelP99 are nearest-rank percentiles of the
	// relative difference |To − From| / From over the disagreeing
	// requests with From > 0, as fractions (0.05 is 5%).
	RelP50 float64 `json:"rel_p50"`
	RelP90 float64 `json:"rel_p90"`
	RelP99 float64 `json:"rel_p99"`
	// Cause names what explains the disagreements, one of the Cause
	// constants; "" when the counts agree.
	Cause string `json:"cause,omitempty"`
	// Template is each client's chat-template offset, by client name:
	// for CauseTemplate To − From is Offset + PerTurn·turn on every
	// request; for CauseReplies Offset on every opening turn.
	Template []TemplateOffset `json:"template,omitempty"`
	// Later counts the disagreeing requests that are later turns of a
	// session (Turn > 0), and EOS the Fewer requests with To = From − 1
	// and finish_reason "stop".
	Later int `json:"later,omitempty"`
	EOS   int `json:"eos,omitempty"`
}

// tokenPair names a comparison and reads its two counts; has says whether
// the record carries both.
type tokenPair struct {
	name     string
	from, to func(*trace.Record) int
	has      func(*trace.Record) bool
}

var (
	requestedIn  = func(r *trace.Record) int { return r.InputTokens }
	clientIn     = func(r *trace.Record) int { return r.ClientInputTokens }
	serverIn     = func(r *trace.Record) int { return r.ServerInputTokens }
	requestedOut = func(r *trace.Record) int { return r.OutputTokens * choices(r) } // every choice's
	serverOut    = func(r *trace.Record) int { return r.ServerOutputTokens }
	chunks       = func(r *trace.Record) int { return r.Chunks }
	always       = func(*trace.Record) bool { return true }
	usageIn      = func(r *trace.Record) bool { return r.ServerInputTokens > 0 && r.ToolSchemaTokens == 0 && r.Images == 0 }
	usageOut     = func(r *trace.Record) bool { return r.ServerOutputTokens > 0 }
	streamedOut  = func(r *trace.Record) bool { return Streamed(r) }
	usageEvents  = func(r *trace.Record) bool { return usageOut(r) && Streamed(r) }
)

// tokenPairs are the comparisons of the audit, in report order. The
// comparisons with chunks count streamed requests only: a response that
// came whole is one "event".
var tokenPairs = []tokenPair{
	{"input requested→client", requestedIn, clientIn, always},
	{"input client→server", clientIn, serverIn, usageIn},
	{"output requested→server", requestedOut, serverOut, usageOut},
	{"output requested→chunks", requestedOut, chunks, streamedOut},
	{"output server→chunks", serverOut, chunks, usageEvents},
}

// audit compares the token counts of recs.
func (c *calc) audit(recs []*trace.Record) TokenAudit {
	a := TokenAudit{Comparisons: make([]Comparison, len(tokenPairs))}
	for i, p := range tokenPairs {
		a.Comparisons[i] = c.compare(recs, p)
	}
	first := ""
	for _, r := range recs {
		if succeeded(r) && !Streamed(r) && !r.Pooled() {
			a.NotStreamed++ // an embeddings, rerank or score request has no output to stream
		}
		if succeeded(r) && r.ToolSchemaTokens > 0 {
			a.WithTools++
			a.ToolSchemaTokens += int64(r.ToolSchemaTokens)
			if r.ServerToolCalls > 0 {
				a.CalledTools++
				a.ToolCalls += int64(r.ServerToolCalls)
			}
		}
		if succeeded(r) && r.Images > 0 {
			a.WithImages++
		}
		if succeeded(r) && r.UsageDropped != "" {
			if a.UsageDropped++; first == "" {
				first = r.UsageDropped
			}
		}
	}
	for i := range a.Comparisons {
		if f := finding(a.Comparisons, i); f != "" {
			a.Findings = append(a.Findings, f)
		}
	}
	if a.UsageDropped > 0 {
		a.Findings = append(a.Findings, fmt.Sprintf("usage: %d of the successful requests reported impossible token counts, dropped and left out of the comparisons with the server's counts (the first: %s)", a.UsageDropped, first))
	}
	if a.WithTools > 0 {
		a.Findings = append(a.Findings, fmt.Sprintf("input: %d requests sent tool definitions (%d tokens on average by surge's count of their JSON), which the server's prompt_tokens hold as its chat template renders them: they are left out of the client→server comparison; %d of their replies called tools, %.2f calls per request", a.WithTools, a.ToolSchemaTokens/int64(a.WithTools), a.CalledTools, float64(a.ToolCalls)/float64(a.WithTools)))
	}
	if a.WithImages > 0 {
		a.Findings = append(a.Findings, fmt.Sprintf("input: %d requests sent images, whose tokens the server's prompt_tokens hold by its own processor: they are left out of the client→server comparison", a.WithImages))
	}
	if a.Choices = choiceTokens(recs); a.Choices != nil {
		a.Findings = append(a.Findings, a.Choices.finding())
	}
	if a.NotStreamed > 0 {
		a.Findings = append(a.Findings, fmt.Sprintf("output: %d of %d requests not streamed (answered whole): no token events to compare with usage.completion_tokens or max tokens", a.NotStreamed, a.NotStreamed+a.Comparisons[3].N))
	}
	return a
}

// compare computes one comparison over the successful records of recs.
func (c *calc) compare(recs []*trace.Record, p tokenPair) Comparison {
	cmp := Comparison{Name: p.name}
	rel, sum := c.buf[:0], 0
	offs := map[string]*offsets{}
	for _, r := range recs {
		if !succeeded(r) || !p.has(r) {
			continue
		}
		cmp.N++
		from, to := p.from(r), p.to(r)
		d := to - from
		sum += d
		o := offs[r.Client]
		if o == nil {
			o = &offsets{}
			offs[r.Client] = o
		}
		o.add(position(r), d)
		o.perInput = o.perInput || r.Pooled()
		if d == 0 {
			continue
		}
		cmp.Disagree++
		cmp.MaxAbsDiff = max(cmp.MaxAbsDiff, abs(d))
		if r.Turn > 0 && !r.Pooled() {
			cmp.Later++
		}
		if d < 0 {
			cmp.Fewer++
			if r.FinishReason == "stop" {
				cmp.Stopped++
				if d == -1 {
					cmp.EOS++
				}
			}
		} else {
			cmp.More++
		}
		if from > 0 {
			rel = append(rel, math.Abs(float64(d))/float64(from))
		}
	}
	c.buf = rel
	if cmp.N > 0 {
		cmp.MeanDiff = float64(sum) / float64(cmp.N)
	}
	if len(rel) > 0 {
		c.sorter.sort(rel)
		m := describe("", "", rel, []float64{50, 90, 99}, 0, false)
		cmp.RelP50, cmp.RelP90, cmp.RelP99 = m.Percentiles[0].Value, m.Percentiles[1].Value, m.Percentiles[2].Value
	}
	explain(&cmp, offs)
	return cmp
}

// TemplateOffset is one client's chat-template offset: Offset tokens on
// an opening turn and PerTurn more per earlier turn. For an embeddings
// client (PerInput) it is the special tokens the server puts around each
// text: Offset on the first, PerTurn more on each further one; for a
// rerank or score client, around each query and document pair.
type TemplateOffset struct {
	Client   string `json:"client"`
	Offset   int    `json:"offset"`
	PerTurn  int    `json:"per_turn,omitempty"`
	PerInput bool   `json:"per_input,omitempty"`
}

// position is where r stands in the template's growth: its turn, or
// for an embeddings request the texts it embeds after the first (for a
// rerank or score request, the pairs it scores after the first), since a
// server adds its special tokens around each.
func position(r *trace.Record) int {
	switch {
	case r.Embeddings():
		return r.Inputs - 1
	case r.Scored():
		return r.Documents - 1
	}
	return r.Turn
}

// offsets follows the differences To − From of a comparison by turn, to
// tell a chat template's offset, fixed per request or growing by a fixed
// amount per turn, from one that varies.
type offsets struct {
	n          int
	perInput   bool // the client's requests are embeddings, rerank or score: positions count texts or pairs
	first      int  // the difference on the first opening turn seen
	firstSeen  bool // an opening turn was seen
	openingVar bool // opening turns differ by varying amounts
	// later holds the (turn, difference) of each later turn.
	later []turnDiff
}

// turnDiff is one later turn's difference.
type turnDiff struct{ turn, d int }

// add counts difference d of a request of the given turn.
func (o *offsets) add(turn, d int) {
	o.n++
	if turn > 0 {
		o.later = append(o.later, turnDiff{turn, d})
		return
	}
	if !o.firstSeen {
		o.first, o.firstSeen = d, true
	} else if d != o.first {
		o.openingVar = true
	}
}

// template reports whether every difference is offset + perTurn·turn for
// one offset and one perTurn: a chat template's tokens.
func (o *offsets) template() (offset, perTurn int, ok bool) {
	if o.openingVar {
		return 0, 0, false
	}
	offset, perTurn, based, fixed := o.first, 0, o.firstSeen, false
	for _, l := range o.later {
		if !based { // no opening turn: a constant offset at most
			offset, based, fixed = l.d, true, true
			continue
		}
		if !fixed {
			if (l.d-offset)%l.turn != 0 {
				return 0, 0, false
			}
			perTurn, fixed = (l.d-offset)/l.turn, true
		}
		if l.d != offset+perTurn*l.turn {
			return 0, 0, false
		}
	}
	return offset, perTurn, true
}

// explain sets c.Cause (and the offsets of a template) from its counts
// and each client's offsets.
func explain(c *Comparison, byClient map[string]*offsets) {
	if c.Disagree == 0 {
		return
	}
	switch c.Name {
	case "input requested→client":
		c.Cause = CauseSynthesis
		if c.Later == c.Disagree {
			c.Cause = CauseReplies
		}
	case "input client→server":
		c.Cause = clientServerCause(c, byClient)
	case "output requested→server", "output requested→chunks":
		c.Cause = CauseUnexplained
		if c.More == 0 && c.Stopped == c.Fewer {
			c.Cause = CauseStopped
		}
	case "output server→chunks":
		switch {
		case c.More > 0:
			c.Cause = CauseUnexplained
		case c.EOS == c.Fewer:
			c.Cause = CauseEOS
		case c.EOS == 0:
			c.Cause = CauseCoalesced
		default:
			c.Cause = CauseMixed
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// finding words comparison i of cs when it disagrees, saying which
// disagreements are legitimate. The requested→chunks comparison is only
// worded when no request carried usage, since requested→server says it
// better.
func finding(cs []Comparison, i int) string {
	c := cs[i]
	if c.Disagree == 0 {
		return ""
	}
	of := fmt.Sprintf("%d of %d requests", c.Disagree, c.N)
	switch c.Name {
	case "input requested→client":
		if c.Cause == CauseReplies {
			return fmt.Sprintf("input: surge's count of the prompt differs from the trace's in %s, all later turns (%s, by up to %d tokens): reply re-tokenization — the replies a turn re-sends, counted as text, are not the number of tokens the server said it generated (a server counting EOS in completion_tokens makes each reply one shorter)", of, moreFewer(c), c.MaxAbsDiff)
		}
		return fmt.Sprintf("input: surge sent another prompt length than the trace asked in %s (%d shorter, %d longer, by up to %d tokens): prompt synthesis was not exact for this tokenizer", of, c.Fewer, c.More, c.MaxAbsDiff)
	case "input client→server":
		return clientServer(c, of)
	case "output requested→server", "output requested→chunks":
		if c.Name == "output requested→chunks" && usageSeen(cs) {
			return ""
		}
		s := fmt.Sprintf("output: %s below max tokens in %d of %d requests (%d with finish_reason=stop: legitimate unless the workload set ignore_eos)", countName(c.Name), c.Fewer, c.N, c.Stopped)
		if c.More > 0 {
			s += fmt.Sprintf("; above max tokens in %d, which a server should not do", c.More)
		}
		return s
	case "output server→chunks":
		return serverChunks(c)
	}
	return ""
}

// usageSeen reports whether any request carried usage.completion_tokens.
func usageSeen(cs []Comparison) bool {
	for _, c := range cs {
		if c.Name == "output requested→server" {
			return c.N > 0
		}
	}
	return false
}

// countName names the To side of an output comparison.
func countName(name string) string {
	if name == "output requested→server" {
		return "usage.completion_tokens"
	}
	return "streamed chunks"
}

// clientServerCause is the cause of the client→server disagreements c and
// fills c.Template: a template when every client's differences fit one
// offset and per-turn growth, reply re-tokenization when only later turns
// stray from a constant opening offset, else a different tokenizer.
func clientServerCause(c *Comparison, byClient map[string]*offsets) string {
	templ, replies := true, c.Later > 0
	var offs []TemplateOffset
	for _, client := range slices.Sorted(maps.Keys(byClient)) {
		o := byClient[client]
		off, per, ok := o.template()
		templ = templ && ok
		replies = replies && !o.openingVar
		if !ok {
			off, per = o.first, 0
		}
		offs = append(offs, TemplateOffset{Client: client, Offset: off, PerTurn: per, PerInput: o.perInput})
	}
	switch {
	case templ:
		c.Template = offs
		return CauseTemplate
	case replies:
		c.Template = offs
		return CauseReplies
	}
	return CauseTokenizer
}

// templateWords words offsets, the same for every client or per client:
// "a constant +7 tokens per request", "+7 tokens on an opening turn and
// +10 more per earlier turn", "agent: a constant +7 tokens per request;
// chat: a constant 0 tokens per request". With perTurn false only the
// opening turns' offsets are worded.
func templateWords(offs []TemplateOffset, perTurn bool) string {
	one := func(o TemplateOffset) string {
		switch {
		case o.PerInput && o.PerTurn == 0:
			return "a constant " + signedInt(o.Offset) + " tokens per request"
		case o.PerInput && o.Offset == o.PerTurn:
			return "a constant " + signedInt(o.Offset) + " tokens per input"
		case o.PerInput:
			return signedInt(o.Offset) + " tokens on the first input and " + signedInt(o.PerTurn) + " more per further input"
		}
		if perTurn && o.PerTurn != 0 {
			return signedInt(o.Offset) + " tokens on an opening turn and " + signedInt(o.PerTurn) + " more per earlier turn"
		}
		if !perTurn {
			return "a constant " + signedInt(o.Offset) + " tokens on opening turns"
		}
		return "a constant " + signedInt(o.Offset) + " tokens per request"
	}
	same := true
	for _, o := range offs {
		same = same && one(o) == one(offs[0])
	}
	if same {
		return one(offs[0])
	}
	var parts []string
	for _, o := range offs {
		parts = append(parts, o.Client+": "+one(o))
	}
	return strings.Join(parts, "; ")
}

// clientServer words the disagreement between surge's prompt count and
// the server's by its cause.
func clientServer(c Comparison, of string) string {
	s := fmt.Sprintf("input: the server's prompt_tokens differ from surge's count in %s (%s)", of, moreFewer(c))
	switch c.Cause {
	case CauseTemplate:
		what := "the chat template's tokens around each message and BOS"
		if slices.ContainsFunc(c.Template, func(o TemplateOffset) bool { return o.PerInput }) {
			what += " (for embeddings, the special tokens around each input; for rerank and score, around each query and document pair)"
		}
		return s + ": " + templateWords(c.Template, true) + " — " + what + ", which the server adds (legitimate), not a different tokenizer"
	case CauseReplies:
		return s + ": " + templateWords(c.Template, false) + " (chat template and BOS), later turns varying — reply re-tokenization: the server re-tokenizes the replies in the history differently (its template trims or rewrites them)"
	}
	return s + fmt.Sprintf(", by %s tokens on average and varying on opening turns: the server's tokenizer differs from surge's (--tokenizer)", signed(c.MeanDiff*float64(c.N)/float64(c.Disagree)))
}

// signedInt formats n with an explicit sign, a true minus sign for
// negatives: "+7", "−1".
func signedInt(n int) string {
	return strings.Replace(fmt.Sprintf("%+d", n), "-", "−", 1)
}

// serverChunks words the disagreement between usage.completion_tokens and
// the number of token-bearing events, which says which side is wrong.
func serverChunks(c Comparison) string {
	s := fmt.Sprintf("output: usage.completion_tokens ≠ streamed token events in %d of %d requests", c.Disagree, c.N)
	if c.EOS > 0 {
		s += fmt.Sprintf("; %d with events = completion_tokens − 1 and finish_reason=stop: the server counts the end-of-sequence token it does not stream (as llama.cpp does; legitimate)", c.EOS)
	}
	if n := c.Fewer - c.EOS; n > 0 {
		s += fmt.Sprintf("; %d with fewer events than tokens: the server sends several tokens per event (legitimate), so ITL spans events, not tokens", n)
	}
	if c.More > 0 {
		s += fmt.Sprintf("; %d with more events than tokens: the server's usage undercounts, or it streams empty events", c.More)
	}
	return s
}

// moreFewer words the split of c's disagreements, leaving out an empty
// side: "8 more", "6 fewer", "2 more, 1 fewer".
func moreFewer(c Comparison) string {
	var parts []string
	if c.More > 0 {
		parts = append(parts, fmt.Sprintf("%d more", c.More))
	}
	if c.Fewer > 0 {
		parts = append(parts, fmt.Sprintf("%d fewer", c.Fewer))
	}
	return strings.Join(parts, ", ")
}

// signed formats v with one decimal and an explicit sign, a true minus
// sign for negatives: "+7.0", "−10.0".
func signed(v float64) string {
	return strings.Replace(fmt.Sprintf("%+.1f", v), "-", "−", 1)
}
