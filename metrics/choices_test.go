package metrics

import (
	"strings"
	"testing"
)

// TestChoiceAudit checks a run of requests for two choices: the audit
// compares the requested tokens of both choices with the server's sum,
// checks each choice against max_tokens, and TPOT counts the tokens per
// choice; throughput counts every choice's tokens.
func TestChoiceAudit(t *testing.T) {
	t.Parallel()
	two := okRec("c", 0, 1000, 10_000)
	two.Choices, two.MaxTokens, two.ChoiceTokens = 2, 10, []int{10, 10}
	two.ServerOutputTokens, two.Chunks = 20, 20
	over := two
	over.ChoiceTokens = []int{12, 8}
	s := Summarize(records(nil, two, over), Options{})
	a := s.All.Tokens
	for _, c := range a.Comparisons {
		if strings.HasPrefix(c.Name, "output") && c.Disagree != 0 {
			t.Errorf("%s: %d disagree; want the requested output of both choices to match the usage", c.Name, c.Disagree)
		}
	}
	ct := a.Choices
	if ct == nil || ct.Requests != 2 || ct.Choices != 4 || ct.Streamed != 4 || ct.OverMax != 1 || ct.Min != 8 || ct.Max != 12 || ct.Mean != 10 {
		t.Fatalf("choices %+v", ct)
	}
	if !strings.Contains(strings.Join(a.Findings, "\n"), "choices: 2 requests for several choices, 4 choices; tokens per streamed choice mean 10.0, min 8, max 12; 1 choices generated more tokens than max_tokens") {
		t.Errorf("findings %q", a.Findings)
	}
	if us, ok := TPOT(&two); !ok || us != 1000 {
		t.Errorf("TPOT %v %v; want (10000 − 1000) / (20/2 − 1) = 1000 µs", us, ok)
	}
	if got := s.All.Throughput.OutputTokens; got != 40 {
		t.Errorf("output tokens %d; want 40, every choice's", got)
	}
	one := okRec("c", 0, 1000, 10_000)
	if a := Summarize(records(nil, one), Options{}).All.Tokens; a.Choices != nil {
		t.Errorf("one choice: %+v", a.Choices)
	}
}
