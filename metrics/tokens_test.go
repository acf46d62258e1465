package metrics

import (
	"slices"
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
	dropped := noUsage
	dropped.UsageDropped = "completion_tokens -3 is negative"

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
		{"template", []trace.Record{template, template}, "input client→server", 2, 0, 2, "(2 more): a constant +7 tokens per request — the chat template's tokens around each message and BOS", "server counts the template; an empty side is not worded"},
		{"server fewer", []trace.Record{truncated, agree}, "input client→server", 2, 1, 0, "(1 fewer), by −10.0 tokens on average and varying on opening turns: the server's tokenizer differs", "no double negative such as \"0 more, 1 fewer, by -10.0\""},
		{"short prompt", []trace.Record{short}, "input requested→client", 1, 1, 0, "not exact for this tokenizer", "surge sent fewer than asked"},
		{"early stop", []trace.Record{stopped}, "output requested→server", 1, 1, 0, "1 with finish_reason=stop", "stopping early is legitimate, and said so"},
		{"usage dropped", []trace.Record{agree, dropped}, "output server→chunks", 1, 0, 0, "usage: 1 of the successful requests reported impossible token counts, dropped and left out of the comparisons with the server's counts (the first: completion_tokens -3 is negative)", "the audit says what the client dropped"},
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

// turnRec is agree as turn turn of session 0, its prompt counted by the
// trace, surge and the server as requested, client and server.
func turnRec(turn, requested, client, server int) trace.Record {
	r := okRec("c", int64(turn)*1e6, 1000, 10_000)
	r.Turn, r.InputTokens, r.ClientInputTokens, r.ServerInputTokens = turn, requested, client, server
	return r
}

// TestTokenAuditCauses checks that each legitimate offset is named for
// what it is, not blamed on a different tokenizer or on several tokens per
// event.
func TestTokenAuditCauses(t *testing.T) {
	t.Parallel()
	eos := okRec("c", 0, 1000, 10_000)
	eos.ServerOutputTokens, eos.Chunks, eos.FinishReason = 7, 6, "stop" // llama.cpp counts EOS
	coalesced := okRec("c", 0, 1000, 10_000)
	coalesced.ServerOutputTokens, coalesced.Chunks = 10, 5
	whole := okRec("c", 0, 1000, 10_000)
	whole.Chunks, whole.ITLUS, whole.NotStreamed = 1, nil, true
	withTools := func(r trace.Record, schema int) trace.Record { r.ToolSchemaTokens = schema; return r }
	calling := func(r trace.Record, calls int) trace.Record { r.ServerToolCalls = calls; return r }
	withImages := func(r trace.Record) trace.Record { r.Images, r.ImageTokens = 1, 1196; return r }
	tests := []struct {
		name    string
		recs    []trace.Record
		cmp     string
		cause   string
		offset  int
		perTurn int
		finding string // substring of a finding
		absent  string // substring no finding may hold
	}{
		{"constant template", []trace.Record{turnRec(0, 100, 100, 107), turnRec(0, 50, 50, 57)},
			"input client→server", CauseTemplate, 7, 0, "a constant +7 tokens per request", "tokenizer differs"},
		{"template per message", []trace.Record{turnRec(0, 100, 100, 107), turnRec(1, 300, 300, 317), turnRec(2, 500, 500, 527)},
			"input client→server", CauseTemplate, 7, 10, "+7 tokens on an opening turn and +10 more per earlier turn", "tokenizer differs"},
		{"replies re-tokenized by the server", []trace.Record{turnRec(0, 100, 100, 107), turnRec(1, 300, 300, 312), turnRec(2, 500, 500, 531)},
			"input client→server", CauseReplies, 7, 0, "reply re-tokenization", "tokenizer differs"},
		{"replies re-counted by surge", []trace.Record{turnRec(0, 100, 100, 107), turnRec(1, 300, 299, 306), turnRec(2, 500, 498, 505)},
			"input requested→client", CauseReplies, 0, 0, "reply re-tokenization", "prompt synthesis"},
		{"different tokenizer", []trace.Record{turnRec(0, 100, 100, 104), turnRec(0, 50, 50, 57)},
			"input client→server", CauseTokenizer, 0, 0, "tokenizer differs", "template"},
		{"synthesis not exact", []trace.Record{turnRec(0, 100, 98, 98)},
			"input requested→client", CauseSynthesis, 0, 0, "not exact", "re-tokenization"},
		{"EOS counted", []trace.Record{eos, eos},
			"output server→chunks", CauseEOS, 0, 0, "2 with events = completion_tokens − 1 and finish_reason=stop: the server counts the end-of-sequence token", "several tokens per event"},
		{"EOS and coalescing", []trace.Record{eos, coalesced},
			"output server→chunks", CauseMixed, 0, 0, "1 with fewer events than tokens: the server sends several tokens per event", ""},
		{"tools left out of client→server", []trace.Record{turnRec(0, 100, 100, 107), withTools(turnRec(0, 100, 100, 431), 300), withTools(turnRec(1, 300, 300, 650), 300)},
			"input client→server", CauseTemplate, 7, 0, "2 requests sent tool definitions (300 tokens on average", "tokenizer differs"},
		{"tool calls per request", []trace.Record{withTools(turnRec(0, 100, 100, 431), 300), calling(withTools(turnRec(1, 300, 300, 650), 300), 3)},
			"input client→server", "", 0, 0, "1 of their replies called tools, 1.50 calls per request", ""},
		{"images left out of client→server", []trace.Record{turnRec(0, 100, 100, 107), withImages(turnRec(0, 100, 100, 1303)), withImages(turnRec(1, 300, 300, 2500))},
			"input client→server", CauseTemplate, 7, 0, "2 requests sent images", "tokenizer differs"},
		{"not streamed", []trace.Record{whole},
			"output server→chunks", "", 0, 0, "not streamed (answered whole): no token events", "several tokens per event"},
	}
	for _, tt := range tests {
		a := Summarize(records(nil, tt.recs...), Options{}).All.Tokens
		var c Comparison
		for _, x := range a.Comparisons {
			if x.Name == tt.cmp {
				c = x
			}
		}
		var off, per int
		if len(c.Template) == 1 {
			off, per = c.Template[0].Offset, c.Template[0].PerTurn
		}
		if c.Cause != tt.cause || off != tt.offset || per != tt.perTurn {
			t.Errorf("%s: %s cause %q template %v; want %q, offset %d, %d per turn", tt.name, tt.cmp, c.Cause, c.Template, tt.cause, tt.offset, tt.perTurn)
		}
		joined := strings.Join(a.Findings, "\n")
		if !strings.Contains(joined, tt.finding) || tt.absent != "" && strings.Contains(joined, tt.absent) {
			t.Errorf("%s: findings %q; want %q and not %q", tt.name, a.Findings, tt.finding, tt.absent)
		}
	}
}

// TestTemplateByClient checks that clients with different templates (one
// on chat completions, one on completions) are each a constant offset, not
// a different tokenizer.
func TestTemplateByClient(t *testing.T) {
	t.Parallel()
	chat, plain := turnRec(0, 100, 100, 107), turnRec(0, 100, 100, 100)
	chat.Client, plain.Client = "agent", "chat"
	c := Summarize(records(nil, chat, plain, chat, plain), Options{}).All.Tokens.Comparisons[1]
	want := []TemplateOffset{{Client: "agent", Offset: 7}, {Client: "chat", Offset: 0}}
	if c.Cause != CauseTemplate || !slices.Equal(c.Template, want) {
		t.Errorf("cause %q template %v; want %q %v", c.Cause, c.Template, CauseTemplate, want)
	}
	if f := finding([]Comparison{c}, 0); !strings.Contains(f, "agent: a constant +7 tokens per request; chat: a constant +0 tokens per request") {
		t.Errorf("finding %q does not give each client's offset", f)
	}
}
