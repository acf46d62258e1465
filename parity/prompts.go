package parity

import (
	"fmt"
	"math/rand/v2"

	"surge/content"
)

// Seed seeds prompt i of Prompts with the PCG stream (Seed, i).
const Seed = 0x5a7e

// DefaultPrompts is the number of prompts a probe sends by default.
const DefaultPrompts = 32

// promptLengths are the exact token lengths (o200k_base) of the prompts,
// cycled with period 5 against the styles' period 4.
var promptLengths = [...]int{32, 96, 256, 640, 1200}

// promptStyles are the prompt styles, cycled.
var promptStyles = [...]content.Style{
	content.StyleQuestion, content.StyleInstruction, content.StyleSummarize, content.StyleCode,
}

// Prompts returns the n fixed probe prompts described in the package doc.
// The same n always gives the same prompts, and Prompts(m) is a prefix of
// Prompts(n) for m < n.
func Prompts(n int) ([]string, error) {
	if n < 1 {
		return nil, fmt.Errorf("parity prompts: need at least 1, got %d", n)
	}
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		return nil, fmt.Errorf("parity prompts: %w", err)
	}
	s, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		return nil, fmt.Errorf("parity prompts: %w", err)
	}
	out := make([]string, n)
	var buf []byte
	for i := range n {
		r := rand.New(rand.NewPCG(Seed, uint64(i)))
		buf = s.Prompt(buf[:0], r, promptStyles[i%len(promptStyles)], promptLengths[i%len(promptLengths)])
		out[i] = string(buf)
	}
	return out, nil
}
