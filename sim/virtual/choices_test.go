package virtual

import (
	"slices"
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// prefillTokens counts the prefill tokens the engine was asked about.
type prefillTokens struct{ n *int }

func (c prefillTokens) StepTime(b sim.Batch) time.Duration {
	for _, ch := range b.Prefill {
		*c.n += ch.Tokens
	}
	return time.Millisecond
}

// TestChoices checks that a client asking for n choices gets, in virtual
// time, n sequences sharing one prefill, and one record per request with
// every choice's tokens, as the driver writes it; a completions client
// too, and a responses one gets one choice.
func TestChoices(t *testing.T) {
	t.Parallel()
	for _, api := range []string{"chat", "completions", "responses"} {
		h := header(0)
		h.Clients[0].Options = []byte(`{"n":3,"logprobs":true}`)
		ss := []*trace.Session{session(0, 0, 160, 8), session(1, time.Second, 160, 8)}
		for _, s := range ss {
			s.API = api
			s.Turns[0].MaxTokens = 8
		}
		prefill := 0
		recs, _ := mustRun(t, Config{Cost: prefillTokens{&prefill}, Engine: sim.EngineConfig{EnablePrefixCaching: true}}, h, ss)
		if len(recs) != 2 {
			t.Fatalf("%s: %d records, want 2", api, len(recs))
		}
		for _, r := range recs {
			want := []int{8, 8, 8}
			if api == "responses" {
				if r.Choices != 0 || r.ChoiceTokens != nil || r.Chunks != 8 {
					t.Errorf("responses: %d choices %v, %d chunks; want one choice of 8", r.Choices, r.ChoiceTokens, r.Chunks)
				}
				continue
			}
			if r.Choices != 3 || !slices.Equal(r.ChoiceTokens, want) || r.Chunks != 24 || r.ServerOutputTokens != 24 || r.MaxTokens != 8 || len(r.ITLUS) != 7 {
				t.Errorf("%s: %d choices %v, %d chunks, %d server tokens, max %d, %d gaps; want 3 of 8, 24, 24, 8, choice 0's 7 gaps",
					api, r.Choices, r.ChoiceTokens, r.Chunks, r.ServerOutputTokens, r.MaxTokens, len(r.ITLUS))
			}
		}
		if api != "responses" && prefill >= 2*2*160 {
			t.Errorf("%s: %d prefill tokens for 2 requests of 3 choices of 160 tokens: want one prefill each, shared", api, prefill)
		}
	}
}
