package harness

import (
	"strings"
	"testing"
)

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

// TestEngineModel: the built-in engine simulates --engine-model, else the
// workload's model, which the catalog must know; an unknown one is an
// error listing the catalog and naming --engine-model.
func TestEngineModel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		reason, model, served string
		want                  string // the model simulated, or text of the error
		ok                    bool
	}{
		{"a served model the catalog knows", "", "meta-llama/Llama-3.1-8B-Instruct", "Llama-3.1-8B", true},
		{"no model named: the default", "", "", DefaultEngineModel, true},
		{"--engine-model for any served name", "qwen3-8b", "my-finetune", "Qwen3-8B", true},
		{"an unknown served model", "", "my-finetune", `"my-finetune" (known: Llama-3.1-8B,`, false},
		{"an unknown served model names the flag", "", "my-finetune", "--engine-model NAME", false},
		{"an unknown --engine-model", "gpt-9", "m", `--engine-model: unknown model "gpt-9" (known: `, false},
	} {
		m, err := EngineModel(tt.model, tt.served)
		switch {
		case tt.ok && (err != nil || m.Name != tt.want):
			t.Errorf("%s: EngineModel(%q, %q) = %q, %v; want %s", tt.reason, tt.model, tt.served, m.Name, err, tt.want)
		case !tt.ok && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: EngineModel(%q, %q) error %v; want one containing %q", tt.reason, tt.model, tt.served, err, tt.want)
		}
	}
}
