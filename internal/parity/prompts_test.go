package parity

import (
	"slices"
	"testing"

	"surge/content"
)

func TestPromptsAreFixedAndExact(t *testing.T) {
	t.Parallel()
	a, err := Prompts(10, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Prompts(4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a[:4], b) {
		t.Error("Prompts(4, 0) is not a prefix of Prompts(10, 0): the set is not fixed")
	}
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, p := range a {
		if got, want := len(tok.Encode(p)), promptLength(i, DefaultPromptTokens); got != want {
			t.Errorf("prompt %d: %d tokens, want %d", i, got, want)
		}
		if seen[p] {
			t.Errorf("prompt %d repeats an earlier prompt", i)
		}
		seen[p] = true
	}
}

func TestPromptsRejectsNone(t *testing.T) {
	t.Parallel()
	if _, err := Prompts(0, 0); err == nil {
		t.Error("Prompts(0, 0) succeeded; a probe needs at least one prompt")
	}
}

func TestPromptsSized(t *testing.T) {
	t.Parallel()
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Prompts(5, 320)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{16, 48, 96, 192, 320} {
		if got := len(tok.Encode(ps[i])); got != want {
			t.Errorf("prompt %d of a set 320 tokens at most: %d tokens, want %d", i, got, want)
		}
	}
}

// TestDefaultPromptsFitASlot: the default prompts with the default
// max_tokens fit llama-server's 1,024-token slot (-np 8 -c 8192), counted
// in o200k_base with FitPromptTokens' margin and, when the peer's Llama 3
// tokenizer is at hand, in its own tokens plus a chat template's.
func TestDefaultPromptsFitASlot(t *testing.T) {
	t.Parallel()
	const slot = 1024
	if fit := FitPromptTokens(slot, DefaultMaxTokens); DefaultPromptTokens > fit {
		t.Errorf("the longest default prompt has %d tokens; a %d-token slot fits %d", DefaultPromptTokens, slot, fit)
	}
	llama, err := content.Open("../../shared/peers/llama/tokenizer.json") // beside a checkout, as the peers README has it
	if err != nil {
		t.Skipf("no Llama 3 tokenizer: %v", err)
	}
	ps, err := Prompts(DefaultPrompts, 0)
	if err != nil {
		t.Fatal(err)
	}
	const template = 16 // BOS, headers and end-of-turn of a one-message chat
	for i, p := range ps {
		if n := len(llama.Encode(p)) + template + DefaultMaxTokens; n > slot {
			t.Errorf("prompt %d: %d Llama 3 tokens with the template and max_tokens, over the %d-token slot", i, n, slot)
		}
	}
}

func TestFitPromptTokens(t *testing.T) {
	t.Parallel()
	tests := []struct{ context, maxTokens, want int }{
		{1024, 128, 672},
		{2048, 128, 1440},
		{512, 128, 288},
		{128, 128, 1}, // no room: the shortest prompt, to be refused and reported
	}
	for _, tt := range tests {
		if got := FitPromptTokens(tt.context, tt.maxTokens); got != tt.want {
			t.Errorf("FitPromptTokens(%d, %d) = %d, want %d", tt.context, tt.maxTokens, got, tt.want)
		}
	}
}
