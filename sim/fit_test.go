package sim

import (
	"strings"
	"testing"
)

// TestFitError: a model that fits says nothing; one that does not says
// which --tp on its GPU, or else which GPU and --tp, would hold it and
// its whole context.
func TestFitError(t *testing.T) {
	t.Parallel()
	model := func(name string) Model {
		m, err := LookupModel(name)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	gpu := func(name string) GPU {
		g, err := LookupGPU(name)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, tt := range []struct {
		name string
		hw   Hardware
		want string // in the error; "" for none
		not  string // not in the error, when set
	}{
		{"8B on one H100 fits", Hardware{Model: model("Llama-3.1-8B"), GPU: gpu("H100")}, "", ""},
		{"70B on one H100: 141 GB of weights; two hold 25k tokens of cache, four its 128k context",
			Hardware{Model: model("Llama-3.3-70B"), GPU: gpu("H100")}, "Llama-3.3-70B (141 GB of bf16 weights) does not fit on 1×H100-SXM with room for a KV cache: --tp 4 would fit it", ""},
		{"70B on one H200: FP8 weights fit it", Hardware{Model: model("Llama-3.1-70B"), GPU: gpu("H200")},
			"does not fit on 1×H200 with room for a KV cache: --tp 2 would fit it, as would --dtype fp8 --tp 1", ""},
		{"70B on one A100: no FP8 to suggest", Hardware{Model: model("Llama-3.1-70B"), GPU: gpu("A100")}, "--tp 4 would fit it", "--dtype"},
		{"70B on two H100s fits, with a short cache", Hardware{Model: model("Llama-3.3-70B"), GPU: gpu("H100"), TP: 2}, "", ""},
		{"235B on two H100s: --tp 8", Hardware{Model: model("Qwen3-235B-A22B"), GPU: gpu("H100"), TP: 2}, "on 2×H100-SXM with room for a KV cache: --tp 8 would fit it", ""},
		{"235B fits no L40S count: another GPU", Hardware{Model: model("Qwen3-235B-A22B"), GPU: gpu("L40S")}, "nor on 8 of them: --gpu", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.hw.FitError(0)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("FitError = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("FitError = %v, want one containing %q", err, tt.want)
			case tt.not != "" && strings.Contains(err.Error(), tt.not):
				t.Errorf("FitError = %v, want one without %q", err, tt.not)
			}
		})
	}
}
