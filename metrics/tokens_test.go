package metrics

import (
	"strings"
	"testing"

	"surge/trace"
)

func TestTokenAudit(t *testing.T) {
	t.Parallel()
	agree := okRec("c", 0, 1000, 10_000)
	coalesced := agree
	coalesced.ServerOutputTokens, coalesced.Chunks = 10, 5 // two tokens per event
	under := agree
	under.ServerOutputTokens = 8 // ten events, usage says eight
	noUsage := agree
	noUsage.ServerOutputTokens, noUsage.ServerInputTokens = 0, 0
	template := agree
	template.ServerInputTokens = 107
	truncated := agree
	truncated.ServerInputTokens = 90 // the server kept less of the prompt
	short := agree
	short.ClientInputTokens = 90
	stopped := agree
	stopped.ServerOutputTokens, stopped.Chunks, stopped.FinishReason = 6, 6, "stop"
	failed := coalesced
	failed.ErrorClass, failed.Status = trace.ErrHTTP, 500

	tests := []struct {
		name     string
		recs     []trace.Record
		cmp      string // comparison checked
		n, fewer int
		more     int
		finding  string // substring of a finding; "" means no finding at all
		reason   string
	}{
		{"agree", []trace.Record{agree, agree}, "output server→chunks", 2, 0, 0, "", "equal counts stay quiet"},
		{"coalesced", []trace.Record{agree, coalesced}, "output server→chunks", 2, 1, 0, "several tokens per event (legitimate)", "chunks < usage is coalescing"},
		{"undercount", []trace.Record{under}, "output server→chunks", 1, 0, 1, "usage undercounts", "chunks > usage means usage is wrong"},
		{"no usage", []trace.Record{noUsage}, "output server→chunks", 0, 0, 0, "", "nothing to compare without usage"},
		{"template", []trace.Record{template, agree}, "input client→server", 2, 0, 1, "(1 more; those differ by +7.0 tokens on average): a constant excess is the chat template", "server counts the template; an empty side is not worded"},
		{"server fewer", []trace.Record{truncated, agree}, "input client→server", 2, 1, 0, "(1 fewer; those differ by −10.0 tokens on average)", "no double negative such as \"0 more, 1 fewer, by -10.0\""},
		{"short prompt", []trace.Record{short}, "input requested→client", 1, 1, 0, "not exact for this tokenizer", "surge sent fewer than asked"},
		{"early stop", []trace.Record{stopped}, "output requested→server", 1, 1, 0, "1 with finish_reason=stop", "stopping early is legitimate, and said so"},
		{"failures ignored", []trace.Record{agree, failed}, "output server→chunks", 1, 0, 0, "", "a failed request's counts are not audited"},
	}
	for _, tt := range tests {
		s := Summarize(records(nil, tt.recs...), Options{})
		a := s.All.Tokens
		var c Comparison
		for _, x := range a.Comparisons {
			if x.Name == tt.cmp {
				c = x
			}
		}
		if c.N != tt.n || c.Fewer != tt.fewer || c.More != tt.more || c.Disagree != tt.fewer+tt.more {
			t.Errorf("%s: %s n %d fewer %d more %d disagree %d; want %d %d %d (%s)",
				tt.name, tt.cmp, c.N, c.Fewer, c.More, c.Disagree, tt.n, tt.fewer, tt.more, tt.reason)
		}
		joined := strings.Join(a.Findings, "\n")
		if (tt.finding == "") != (joined == "") || !strings.Contains(joined, tt.finding) {
			t.Errorf("%s: findings %q, want one containing %q (%s)", tt.name, a.Findings, tt.finding, tt.reason)
		}
	}
}

func TestComparisonStats(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for _, server := range []int{10, 10, 12, 5, 10} {
		r := okRec("c", 0, 1000, 10_000)
		r.ServerOutputTokens = server
		recs = append(recs, r)
	}
	s := Summarize(records(nil, recs...), Options{})
	c := s.All.Tokens.Comparisons[4] // output server→chunks, chunks 10 each
	// Differences chunks − usage: 0, 0, −2, +5, 0; relative |d|/usage of
	// the two disagreeing: 2/12 and 5/5.
	if c.Name != "output server→chunks" || c.MeanDiff != 0.6 || c.MaxAbsDiff != 5 || c.RelP50 != 2.0/12 || c.RelP99 != 1 {
		t.Errorf("%+v; want mean diff 0.6, max |diff| 5, rel p50 1/6, rel p99 1", c)
	}
}
