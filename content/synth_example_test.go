package content_test

import (
	"fmt"
	"math/rand/v2"

	"surge/content"
)

func ExampleSynth_Prompt() {
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		panic(err)
	}
	s, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		panic(err)
	}
	r := rand.New(rand.NewPCG(1, 2)) // one stream per session, from the run's seed
	var buf []byte
	for _, n := range []int{1, 12, 60} {
		buf = s.Prompt(buf[:0], r, content.StyleQuestion, n)
		fmt.Printf("%d tokens: %s\n", len(tok.Encode(string(buf))), buf)
	}
	// Output:
	// 1 tokens: Hello
	// 12 tokens: Any ideas? The tourism board revised it in the spring.
	// 60 tokens: Use the passage below to answer my question about solar energy.
	//
	// The budget for the feed-in tariff was about 2 million dollars in 2007. Local installers reviewed the plan. The share of solar power dropped again. How could local installers improve the feed-in tariff over the next 6 months?
}
