package parity_test

import (
	"fmt"

	"surge/internal/parity"
)

func ExampleCompare() {
	answer := func(text string, tokens int) parity.Answer {
		return parity.Answer{Text: text, CompletionTokens: tokens, FinishReason: "stop"}
	}
	base := parity.TargetResult{Name: "fp16", Answers: []parity.Answer{
		answer("Paris.", 2), answer("It is 4.", 4), answer("Blue.", 2),
	}}
	cand := parity.TargetResult{Name: "fp8", Answers: []parity.Answer{
		answer("Paris, the capital.", 4), answer("It is 4, because 2 + 2 = 4.", 8), answer("Blue, mostly.", 4),
	}}
	c := parity.Compare(base, cand)
	fmt.Println(c.Verdict)
	fmt.Println(c.Explanation)
	// Output:
	// differs
	// fp8 generates 2.00× the output tokens of fp16 on the same prompts: its token rate must be 2.00× fp16's just to match user wait, so throughput comparisons must account for it (compare time per request, not tokens per second).
}
