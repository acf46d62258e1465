package metrics

import (
	"fmt"

	"surge/trace"
)

// ChoiceTokens sums up the successful requests for several choices (n):
// how many, their choices, and the tokens of each streamed choice
// (trace.Record.ChoiceTokens), each checked against the max_tokens its
// request sent.
type ChoiceTokens struct {
	Requests int `json:"requests"` // successful requests for several choices
	Choices  int `json:"choices"`  // the choices they asked for
	// Streamed counts the choices of streamed requests, whose tokens
	// are counted each; Mean, Min and Max are their token counts.
	Streamed int     `json:"streamed"`
	Mean     float64 `json:"mean_tokens"`
	Min      int     `json:"min_tokens"`
	Max      int     `json:"max_tokens"`
	// OverMax counts the streamed choices with more tokens than their
	// request's max_tokens; Missing those that had no token at all.
	OverMax int `json:"over_max_tokens"`
	Missing int `json:"missing"`
}

// choiceTokens sums up the choices of recs' successful requests for
// several; nil when there are none.
func choiceTokens(recs []*trace.Record) *ChoiceTokens {
	var ct ChoiceTokens
	sum := 0
	for _, r := range recs {
		if !succeeded(r) || r.Choices < 2 {
			continue
		}
		ct.Requests++
		ct.Choices += r.Choices
		for _, n := range r.ChoiceTokens {
			if ct.Streamed == 0 || n < ct.Min {
				ct.Min = n
			}
			ct.Streamed++
			sum += n
			ct.Max = max(ct.Max, n)
			if r.MaxTokens > 0 && n > r.MaxTokens {
				ct.OverMax++
			}
			if n == 0 {
				ct.Missing++
			}
		}
	}
	if ct.Requests == 0 {
		return nil
	}
	if ct.Streamed > 0 {
		ct.Mean = float64(sum) / float64(ct.Streamed)
	}
	return &ct
}

// finding says the choices in words, for every report.
func (ct *ChoiceTokens) finding() string {
	s := fmt.Sprintf("choices: %d requests for several choices, %d choices", ct.Requests, ct.Choices)
	if ct.Streamed == 0 {
		return s + ", none streamed: no tokens per choice (the usage counts all choices together)"
	}
	s += fmt.Sprintf("; tokens per streamed choice mean %.1f, min %d, max %d", ct.Mean, ct.Min, ct.Max)
	if ct.OverMax > 0 {
		s += fmt.Sprintf("; %d choices generated more tokens than max_tokens", ct.OverMax)
	}
	if ct.Missing > 0 {
		s += fmt.Sprintf("; %d choices streamed no token", ct.Missing)
	}
	return s
}

// choices is how many choices r asked for: its n, at least 1.
func choices(r *trace.Record) int { return max(r.Choices, 1) }
