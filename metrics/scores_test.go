package metrics

import (
	"strings"
	"testing"

	"surge/trace"
)

// scoreRec is a successful rerank request of a 10-token query and n
// documents of 90 tokens each, the server counting perPair tokens more
// per pair.
func scoreRec(session, n, perPair int) trace.Record {
	r := embedRec(session, 1, 0)
	r.Client, r.Inputs, r.Documents = "r", 0, n
	r.InputTokens, r.ClientInputTokens = 100*n, 100*n
	r.ServerInputTokens = r.ClientInputTokens + perPair*n
	return r
}

// TestScoresFigures checks a scope of rerank requests: token times and
// output tokens do not apply, documents are counted and rated, and a
// server's special tokens around each pair are a template; with
// embeddings requests too, the reason names both.
func TestScoresFigures(t *testing.T) {
	t.Parallel()
	recs := []trace.Record{scoreRec(0, 1, 3), scoreRec(1, 5, 3), scoreRec(2, 9, 3)}
	a := Summarize(records(nil, recs...), Options{}).All
	for _, m := range []Metric{a.Latency.TTFT, a.Latency.TTFO, a.Latency.ITL, a.Latency.TPOT} {
		if m.NotApplicable != ScoresReason {
			t.Errorf("%s: not applicable %q, want %q", m.Name, m.NotApplicable, ScoresReason)
		}
	}
	tp := a.Throughput
	if tp.Documents != 15 || tp.DocumentsPerS <= 0 || tp.Inputs != 0 || tp.InputTokens != 1545 || tp.OutputNotApplicable != ScoresReason || tp.OutputSource != "" {
		t.Errorf("throughput %+v: want 15 documents, 1545 input tokens (the server's), a rate, output n/a", tp)
	}
	b, err := tp.MarshalJSON()
	if err != nil || strings.Contains(string(b), "output_tokens") || !strings.Contains(string(b), `"documents":15`) {
		t.Errorf("throughput JSON %s, %v: want the documents and no output figures", b, err)
	}
	joined := strings.Join(a.Tokens.Findings, "\n")
	if strings.Contains(joined, "not streamed") || !strings.Contains(joined, "a constant +3 tokens per input") {
		t.Errorf("findings %q: want the per-pair template only", a.Tokens.Findings)
	}
	both := Summarize(records(nil, append(recs, embedRec(3, 2, 2))...), Options{}).All
	if both.Latency.TTFT.NotApplicable != PooledReason || both.Throughput.OutputNotApplicable != PooledReason || both.Throughput.Inputs != 2 {
		t.Errorf("with embeddings: TTFT %q, output %q, inputs %d; want %q and 2 inputs", both.Latency.TTFT.NotApplicable, both.Throughput.OutputNotApplicable, both.Throughput.Inputs, PooledReason)
	}
}
