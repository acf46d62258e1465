package metrics

import (
	"fmt"
	"math"
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
	// Findings are the comparisons that disagree, in words.
	Findings []string `json:"findings,omitempty"`
}

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
	requestedOut = func(r *trace.Record) int { return r.OutputTokens }
	serverOut    = func(r *trace.Record) int { return r.ServerOutputTokens }
	chunks       = func(r *trace.Record) int { return r.Chunks }
	always       = func(*trace.Record) bool { return true }
	usageIn      = func(r *trace.Record) bool { return r.ServerInputTokens > 0 }
	usageOut     = func(r *trace.Record) bool { return r.ServerOutputTokens > 0 }
)

// tokenPairs are the comparisons of the audit, in report order.
var tokenPairs = []tokenPair{
	{"input requested→client", requestedIn, clientIn, always},
	{"input client→server", clientIn, serverIn, usageIn},
	{"output requested→server", requestedOut, serverOut, usageOut},
	{"output requested→chunks", requestedOut, chunks, always},
	{"output server→chunks", serverOut, chunks, usageOut},
}

// audit compares the token counts of recs.
func (c *calc) audit(recs []*trace.Record) TokenAudit {
	a := TokenAudit{Comparisons: make([]Comparison, len(tokenPairs))}
	for i, p := range tokenPairs {
		a.Comparisons[i] = c.compare(recs, p)
	}
	for i := range a.Comparisons {
		if f := finding(a.Comparisons, i); f != "" {
			a.Findings = append(a.Findings, f)
		}
	}
	return a
}

// compare computes one comparison over the successful records of recs.
func (c *calc) compare(recs []*trace.Record, p tokenPair) Comparison {
	cmp := Comparison{Name: p.name}
	rel, sum := c.buf[:0], 0
	for _, r := range recs {
		if !succeeded(r) || !p.has(r) {
			continue
		}
		cmp.N++
		from, to := p.from(r), p.to(r)
		d := to - from
		sum += d
		if d == 0 {
			continue
		}
		cmp.Disagree++
		cmp.MaxAbsDiff = max(cmp.MaxAbsDiff, abs(d))
		if d < 0 {
			cmp.Fewer++
			if r.FinishReason == "stop" {
				cmp.Stopped++
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
	return cmp
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
		return fmt.Sprintf("input: surge sent another prompt length than the trace asked in %s (%d shorter, %d longer, by up to %d tokens): prompt synthesis was not exact for this tokenizer", of, c.Fewer, c.More, c.MaxAbsDiff)
	case "input client→server":
		return fmt.Sprintf("input: the server's prompt_tokens differ from surge's count in %s (%s; those differ by %s tokens on average): a constant excess is the chat template, anything else a different tokenizer", of, moreFewer(c), signed(c.MeanDiff*float64(c.N)/float64(c.Disagree)))
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

// serverChunks words the disagreement between usage.completion_tokens and
// the number of token-bearing events, which says which side is wrong.
func serverChunks(c Comparison) string {
	s := fmt.Sprintf("output: usage.completion_tokens ≠ streamed token events in %d of %d requests", c.Disagree, c.N)
	if c.Fewer > 0 {
		s += fmt.Sprintf("; %d with fewer events than tokens: the server sends several tokens per event (legitimate), so ITL spans events, not tokens", c.Fewer)
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
