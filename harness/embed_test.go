package harness

import "testing"

// TestEmbeddedName: one engine is named as itself, several per served
// model, sorted.
func TestEmbeddedName(t *testing.T) {
	t.Parallel()
	one := embedded{names: map[string]string{"llama": "A@Gx1"}}
	two := embedded{names: map[string]string{"qwen": "B@Gx1", "llama": "A@Gx1"}}
	if one.name() != "A@Gx1" || two.name() != "llama=A@Gx1,qwen=B@Gx1" {
		t.Errorf("names %q and %q", one.name(), two.name())
	}
}
