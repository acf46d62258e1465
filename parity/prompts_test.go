package parity

import (
	"slices"
	"testing"

	"surge/content"
)

func TestPromptsAreFixedAndExact(t *testing.T) {
	t.Parallel()
	a, err := Prompts(10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Prompts(4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a[:4], b) {
		t.Error("Prompts(4) is not a prefix of Prompts(10): the set is not fixed")
	}
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, p := range a {
		if got, want := len(tok.Encode(p)), promptLengths[i%len(promptLengths)]; got != want {
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
	if _, err := Prompts(0); err == nil {
		t.Error("Prompts(0) succeeded; a probe needs at least one prompt")
	}
}
