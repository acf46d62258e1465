package virtual

import (
	"testing"
	"time"

	"surge/trace"
)

// TestEmbeddings checks an embeddings request in virtual time: one step
// of prefill for all its texts' tokens, recorded as a whole answer with
// its inputs, no tokens to time, and no prefix-cache hits for the same
// batch sent again.
func TestEmbeddings(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i := range 2 {
		s := session(i, time.Duration(i)*time.Second, 64, 0)
		s.API = "embeddings"
		s.Turns[0].Prompt, s.Turns[0].Inputs = "", []string{"abcd", "efgh", "ijkl"}
		ss = append(ss, s)
	}
	recs, _ := mustRun(t, Config{Cost: stepCost(time.Millisecond)}, header(0), ss)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		if r.Inputs != 3 || !r.NotStreamed || r.TTFTUS != 0 || r.Chunks != 0 || len(r.ITLUS) != 0 || r.ServerOutputTokens != 0 ||
			r.E2EUS != 1000 || r.FirstByteUS != r.E2EUS || r.ServerInputTokens != 64 || r.CachedTokens != 0 || r.ErrorClass != "" {
			t.Errorf("record %+v: want 3 inputs answered whole after one 1 ms step, 64 prompt tokens, none cached", r)
		}
	}
}

// TestScores checks a rerank and a score request in virtual time as an
// embeddings one: one step of prefill for all its pairs' tokens, recorded
// as a whole answer with its documents and no tokens to time.
func TestScores(t *testing.T) {
	t.Parallel()
	var ss []*trace.Session
	for i, api := range []string{"rerank", "score"} {
		s := session(i, time.Duration(i)*time.Second, 64, 0)
		s.API = api
		s.Turns[0].Prompt, s.Turns[0].Documents = "q", []string{"abcd", "efgh"}
		ss = append(ss, s)
	}
	recs, _ := mustRun(t, Config{Cost: stepCost(time.Millisecond)}, header(0), ss)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		if r.Documents != 2 || r.Inputs != 0 || !r.NotStreamed || r.TTFTUS != 0 || r.Chunks != 0 || len(r.ITLUS) != 0 || r.ServerOutputTokens != 0 ||
			r.E2EUS != 1000 || r.FirstByteUS != r.E2EUS || r.ServerInputTokens != 64 || r.ErrorClass != "" {
			t.Errorf("record %+v: want 2 documents answered whole after one 1 ms step, 64 prompt tokens", r)
		}
	}
}
