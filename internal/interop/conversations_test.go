package interop

import (
	"fmt"
	"testing"
)

// chatSpec is a closed-loop multi-turn workload: 5 conversations of 3
// turns, 2 in flight, with history live or pinned.
func chatSpec(history string) string {
	return fmt.Sprintf(`version: 1
name: interop-llama-conversations
seed: 5
tokenizer: TOKENIZER
requests: 5
clients:
  - name: conv
    model: model
    concurrency: 2
    input: {dist: uniform, min: 30, max: 150}
    output: 24
    sampling: {exact_output: true}
    session:
      kind: chat
      turns: 3
      think: 20ms
      history: %s
`, history)
}

// TestLlamaConversations runs multi-turn chats against llama-server with
// 2 slots of 4,096 tokens, with the server's own replies as history and
// with the trace's pinned replies, and checks every turn's prompt length
// against the server's tokenizer and template.
func TestLlamaConversations(t *testing.T) {
	if smoke() {
		t.Skip("-short")
	}
	srv := startLlama(t, "model", "-np", "2")
	tr := newTraces(t)

	t.Run("pinned", func(t *testing.T) {
		r := runTrace(t, srv, tr.gen(t, chatSpec("pinned")))
		checkComplete(t, r)
		checkReportCounts(t, r)
		want := turns(r.trace)
		for _, rec := range r.recs.Requests {
			// Turn k sends the conversation so far: every earlier user
			// message and pinned reply, then its own message, the salt
			// in place of the first one's first tokens.
			pieces := 0
			for i := 0; i <= rec.Turn; i++ {
				tu := want[key{rec.Client, rec.Session, i}]
				text := tu.Prompt
				if i == 0 {
					text = salted(t, r.recs.Salt, text)
				}
				pieces += tokenize(t, srv, text)
				if i < rec.Turn {
					pieces += tokenize(t, srv, tu.Reply)
				}
			}
			if rec.InputTokens != pieces || rec.ClientInputTokens != pieces {
				t.Errorf("%s: the messages sent are %d tokens by the server's tokenizer; the record says input_tokens %d, client_input_tokens %d", rec, pieces, rec.InputTokens, rec.ClientInputTokens)
			}
			// Llama 3's template: BOS, 5 tokens around each of the 2k+1
			// messages, 4 for the assistant's header.
			if tmpl := 1 + 5*(2*rec.Turn+1) + 4; rec.ServerInputTokens != pieces+tmpl {
				t.Errorf("%s: the server's prompt_tokens %d, want %d messages' tokens + %d of the template", rec, rec.ServerInputTokens, pieces, tmpl)
			}
		}
		checkCached(t, r)
	})

	t.Run("live", func(t *testing.T) {
		r := runTrace(t, srv, tr.gen(t, chatSpec("live")))
		checkComplete(t, r)
		checkReportCounts(t, r)
		checkTimings(t, r)
		for _, rec := range r.recs.Requests {
			if rec.Turn == 0 {
				continue
			}
			// The replies are the server's own, whose text surge does not
			// record; the template trims each message, and a reply's first
			// word, a one-token " word", then re-tokenizes without its space
			// to a few tokens, so only bounds hold: at least the template's
			// tokens, at most 3 more per earlier reply.
			tmpl := 1 + 5*(2*rec.Turn+1) + 4
			if d := rec.ServerInputTokens - rec.InputTokens - tmpl; d < 0 || d > 3*rec.Turn {
				t.Errorf("%s: the server's prompt_tokens %d exceed surge's input_tokens %d by the template's %d and %d more; want 0 to %d more", rec, rec.ServerInputTokens, rec.InputTokens, tmpl, d, 3*rec.Turn)
			}
		}
		checkCached(t, r)
	})
}

// checkCached checks that a conversation workload's report gives the
// server's prefix-cache hit rate beside the implied reuse, both above
// zero: every later turn re-sends the earlier ones.
func checkCached(t *testing.T, r run) {
	t.Helper()
	rep := readReport(t, r.dir)
	if pc := rep.All.PrefixCache; pc == nil || !pc.Reported || pc.HitRate == nil || *pc.HitRate <= 0 {
		t.Errorf("report.json prefix_cache %+v: want a hit rate above 0 (llama-server reports timings.cache_n)", pc)
	}
	if im := rep.Implied; im == nil || im.CachedTokens <= 0 {
		t.Errorf("report.json implied_prefix_reuse %+v: want cached tokens above 0", im)
	}
}
