package parity

import (
	"math"
	"slices"
	"unicode/utf8"
)

// PromptDiff compares the base's and a candidate's answers to one prompt
// (see the package doc for each field's rule).
type PromptDiff struct {
	Prompt int `json:"prompt"` // 0-based index
	// Error is set when either side failed; the prompt is then not
	// compared and the fields below are zero. BothFailed says both sides
	// failed: the servers agree in failing, so it is no difference.
	Error      string `json:"error,omitempty"`
	BothFailed bool   `json:"both_failed,omitempty"`
	Exact      bool   `json:"exact"`
	// PrefixChars is the common prefix of the texts in characters.
	PrefixChars int `json:"prefix_chars"`
	// HasTokens reports whether both answers carried logprobs; only then
	// are PrefixTokens and MeanAbsDLogprob set.
	HasTokens    bool `json:"has_tokens"`
	PrefixTokens int  `json:"prefix_tokens"`
	// MeanAbsDLogprob is (1/k) Σ |lp_c − lp_b| over the PrefixTokens = k
	// common tokens; 0 when k = 0.
	MeanAbsDLogprob float64 `json:"mean_abs_dlogprob"`
	BaseTokens      int     `json:"base_tokens"`
	CandTokens      int     `json:"candidate_tokens"`
	// Ratio is CandTokens / max(BaseTokens, 1), or 1 when both are 0.
	Ratio      float64 `json:"ratio"`
	SameFinish bool    `json:"same_finish"`
}

// LengthDiffers reports whether the lengths differ by more than 10%,
// |c − b| > 0.10·max(b, 1), tested in integers as 10·|c − b| > max(b, 1),
// or only one side answered. A prompt both sides failed has no lengths
// to differ.
func (d PromptDiff) LengthDiffers() bool {
	if d.Error != "" {
		return !d.BothFailed
	}
	gap := d.CandTokens - d.BaseTokens
	return 10*max(gap, -gap) > max(d.BaseTokens, 1)
}

// Comparison is one candidate against the base.
type Comparison struct {
	Base      string       `json:"base"`
	Candidate string       `json:"candidate"`
	Prompts   []PromptDiff `json:"prompts"`
	Summary   Summary      `json:"summary"`
	Verdict   Verdict      `json:"verdict"`
	// Explanation says in one or two sentences what differs and what it
	// means for throughput comparisons.
	Explanation string `json:"explanation"`
}

// Compare compares cand's answers with base's, prompt by prompt, and
// judges them. Both must hold answers to the same prompts in the same
// order; extra answers of either are ignored.
func Compare(base, cand TargetResult) Comparison {
	n := min(len(base.Answers), len(cand.Answers))
	c := Comparison{Base: base.Name, Candidate: cand.Name, Prompts: make([]PromptDiff, n)}
	for i := range n {
		c.Prompts[i] = diff(i, base.Answers[i], cand.Answers[i])
	}
	c.Summary = summarize(c.Prompts)
	c.Verdict = judge(c.Summary)
	c.Explanation = explain(c.Base, c.Candidate, c.Verdict, c.Summary, c.Prompts)
	return c
}

// diff compares two answers to prompt i.
func diff(i int, b, c Answer) PromptDiff {
	d := PromptDiff{Prompt: i}
	switch {
	case b.Error != "" && c.Error != "":
		d.BothFailed = true
		d.Error = "both failed: " + b.Error
		if c.Error != b.Error {
			d.Error = "both failed: base " + b.Error + "; candidate " + c.Error
		}
		return d
	case b.Error != "":
		d.Error = "base failed: " + b.Error
		return d
	case c.Error != "":
		d.Error = "candidate failed: " + c.Error
		return d
	}
	d.Exact = b.Text == c.Text
	d.PrefixChars = commonRunes(b.Text, c.Text)
	if len(b.Tokens) > 0 && len(c.Tokens) > 0 {
		d.HasTokens = true
		d.PrefixTokens, d.MeanAbsDLogprob = commonTokens(b.Tokens, c.Tokens)
	}
	d.BaseTokens, d.CandTokens = outputTokens(b), outputTokens(c)
	d.Ratio = ratio(d.CandTokens, d.BaseTokens)
	d.SameFinish = b.FinishReason == c.FinishReason
	return d
}

// commonRunes counts the characters of the longest common prefix.
func commonRunes(a, b string) int {
	n := 0
	for a != "" && b != "" {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb || sa != sb {
			break
		}
		a, b, n = a[sa:], b[sb:], n+1
	}
	return n
}

// commonTokens returns the length k of the common token prefix and the
// mean |Δlogprob| over it, (1/k) Σ_{i<k} |a_i − b_i|, or 0 when k = 0.
func commonTokens(a, b []Token) (int, float64) {
	k, sum := 0, 0.0
	for k < len(a) && k < len(b) && a[k].Token == b[k].Token {
		sum += math.Abs(a[k].Logprob - b[k].Logprob)
		k++
	}
	if k == 0 {
		return 0, 0
	}
	return k, sum / float64(k)
}

// outputTokens is the answer's length: usage, else logprob entries.
func outputTokens(a Answer) int {
	if a.CompletionTokens > 0 {
		return a.CompletionTokens
	}
	return len(a.Tokens)
}

// ratio is c / max(b, 1), or 1 when both are 0.
func ratio(c, b int) float64 {
	if b == 0 && c == 0 {
		return 1
	}
	return float64(c) / float64(max(b, 1))
}

// median returns the middle of xs (the mean of the two middles for an
// even count), or 0 for none. It sorts a copy.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
