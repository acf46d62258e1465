package metrics

import (
	"strings"
	"testing"

	"surge/trace"
)

// embedRec is a successful embeddings request of n texts of 100 tokens
// each, the server counting perInput tokens more per text.
func embedRec(session, n, perInput int) trace.Record {
	r := okRec("e", int64(session)*100_000, 0, 20_000)
	r.Session = session
	r.Inputs, r.NotStreamed = n, true
	r.TTFTUS, r.TTFOUS, r.ITLUS, r.Chunks = 0, 0, nil, 0
	r.OutputTokens, r.ServerOutputTokens, r.FinishReason = 0, 0, ""
	r.InputTokens, r.ClientInputTokens = 100*n, 100*n
	r.ServerInputTokens = r.ClientInputTokens + perInput*n
	return r
}

// TestEmbeddingsFigures checks a scope of embeddings requests: token
// times and output tokens do not apply (n/a, not 0), inputs are counted
// and rated, the audit has no output finding, and a server's special
// tokens around each text are a template, whatever the batch sizes.
func TestEmbeddingsFigures(t *testing.T) {
	t.Parallel()
	recs := []trace.Record{embedRec(0, 1, 2), embedRec(1, 4, 2), embedRec(2, 7, 2)}
	s := Summarize(records(nil, recs...), Options{})
	a := s.All
	for _, m := range []Metric{a.Latency.TTFT, a.Latency.TTFO, a.Latency.ITL, a.Latency.TPOT} {
		if m.NotApplicable != EmbeddingsReason {
			t.Errorf("%s: not applicable %q, want %q", m.Name, m.NotApplicable, EmbeddingsReason)
		}
	}
	if a.Latency.E2E.N != 3 || a.Latency.E2E.NotApplicable != "" {
		t.Errorf("E2E: n %d, %q; want 3 requests measured", a.Latency.E2E.N, a.Latency.E2E.NotApplicable)
	}
	tp := a.Throughput
	if tp.Inputs != 12 || tp.InputsPerS <= 0 || tp.OutputNotApplicable != EmbeddingsReason || tp.OutputSource != "" {
		t.Errorf("throughput %+v: want 12 inputs, a rate, output n/a", tp)
	}
	b, err := tp.MarshalJSON()
	if err != nil || strings.Contains(string(b), "output_tokens") || !strings.Contains(string(b), `"inputs":12`) {
		t.Errorf("throughput JSON %s, %v: want the inputs and no output figures", b, err)
	}
	joined := strings.Join(a.Tokens.Findings, "\n")
	if strings.Contains(joined, "not streamed") || !strings.Contains(joined, "a constant +2 tokens per input") || !strings.Contains(joined, "special tokens around each input") {
		t.Errorf("findings %q: want the per-input template only", a.Tokens.Findings)
	}
	for _, c := range a.Tokens.Comparisons {
		if c.Name == "input client→server" && c.Cause != CauseTemplate {
			t.Errorf("cause %q, want %q", c.Cause, CauseTemplate)
		}
	}

	mixed := Summarize(records(nil, append(recs, okRec("c", 0, 1000, 10_000))...), Options{})
	if tp := mixed.All.Throughput; tp.OutputNotApplicable != "" || tp.OutputSource != "server" || mixed.All.Latency.TTFT.NotApplicable != "" {
		t.Errorf("with a chat request: output source %q, n/a %q, TTFT %q; want the chat request's figures", tp.OutputSource, tp.OutputNotApplicable, mixed.All.Latency.TTFT.NotApplicable)
	}
}
