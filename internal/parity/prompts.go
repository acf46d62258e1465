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

// DefaultPromptTokens is the length of the longest fixed prompt: with
// DefaultMaxTokens it fits a 1,024-token context (llama-server's slot
// with -np 8) with a quarter to spare (FitPromptTokens).
const DefaultPromptTokens = 640

// promptLengths are the exact token lengths (o200k_base) of the prompts
// when the longest is DefaultPromptTokens, cycled with period 5 against
// the styles' period 4.
var promptLengths = [...]int{32, 96, 192, 384, 640}

// FitPromptTokens is the longest fixed prompt that fits a context of
// context tokens with maxTokens of output: (context − maxTokens)·3/4,
// leaving a quarter for the chat template and for a tokenizer that counts
// more tokens than o200k_base; at least 1.
func FitPromptTokens(context, maxTokens int) int {
	return max((context-maxTokens)*3/4, 1)
}

// promptLength is the length of prompt i when the longest is longest:
// promptLengths scaled by longest / DefaultPromptTokens, at least 1.
func promptLength(i, longest int) int {
	return max(promptLengths[i%len(promptLengths)]*longest/DefaultPromptTokens, 1)
}

// promptStyles are the prompt styles, cycled.
var promptStyles = [...]content.Style{
	content.StyleQuestion, content.StyleInstruction, content.StyleSummarize, content.StyleCode,
}

// Prompts returns the n fixed probe prompts described in the package doc,
// the longest of longest tokens (≤ 0 means DefaultPromptTokens). The
// same n and longest always give the same prompts, and Prompts(m, l) is a
// prefix of Prompts(n, l) for m < n.
func Prompts(n, longest int) ([]string, error) {
	if n < 1 {
		return nil, fmt.Errorf("parity prompts: need at least 1, got %d", n)
	}
	if longest <= 0 {
		longest = DefaultPromptTokens
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
		buf = s.Prompt(buf[:0], r, promptStyles[i%len(promptStyles)], promptLength(i, longest))
		out[i] = string(buf)
	}
	return out, nil
}
