package vision

import "testing"

func TestTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		model string
		w, h  int
		want  int
		why   string
	}{
		{"gpt-4o", 1024, 1024, 765, "OpenAI's example: 768×768 is 4 tiles"},
		{"gpt-4o-2024-08-06", 2048, 4096, 1105, "OpenAI's example: 1024×2048 then 768×1536, 6 tiles"},
		{"gpt-4.1", 512, 512, 255, "never scaled up: one tile"},
		{"gpt-4o", 4096, 16, 765, "fit in 2048: 2048×8 is 4 tiles"},
		{"gpt-4o-mini", 1024, 1024, 2833 + 4*5667, "mini's base and tile"},
		{"o3", 1024, 1024, 765, "the o-series counts as GPT-4o"},
		{"claude-sonnet-4", 1092, 1092, 1590, "Anthropic's table: 1092×1092 is about 1590"},
		{"claude-3-haiku", 200, 200, 54, "Anthropic's table: 200×200 is about 54"},
		{"claude-opus-4", 4000, 4000, 1599, "scaled to about 1.2 megapixels"},
		{"Qwen/Qwen2.5-VL-7B-Instruct", 1280, 720, 1196, "1288×728 is 46×26 patches (ServeGen's 1196)"},
		{"qwen2-vl-2b", 16, 16, 4, "raised to the 4 patches' least"},
		{"qwen2-vl-2b", 4096, 4096, 16384, "lowered to the most"},
		{"Qwen3-VL-8B", 1280, 720, 40 * 22, "32 px patches, 22.5 rounded to even"},
		{"llava-1.5-7b-hf", 4096, 16, 576, "LLaVA-1.5 is 576 whatever the size"},
		{"meta-llama/Llama-3.2-11B-Vision-Instruct", 1120, 1120, 4 * 1601, "2×2 tiles"},
		{"llama-3.2-11b-vision", 4096, 560, 4 * 1601, "at most 4 tiles"},
		{"llama-3.2-11b-vision", 100, 100, 1601, "one tile"},
		{"qwen3-8b", 1280, 720, 1196, "a model not known: DefaultFamily, Qwen2-VL"},
	}
	for _, tt := range tests {
		if got := Tokens(tt.model, tt.w, tt.h); got != tt.want {
			t.Errorf("Tokens(%q, %d, %d) = %d, want %d (%s)", tt.model, tt.w, tt.h, got, tt.want, tt.why)
		}
	}
}

// TestTokensBounds checks every family's count is positive over the whole
// range of sizes a spec allows, corners and extreme aspects included.
func TestTokensBounds(t *testing.T) {
	t.Parallel()
	sides := []int{1, MinSide, 17, 559, 561, 1568, 2048, 2049, MaxSide}
	for _, f := range []Family{OpenAI, OpenAIMini, Anthropic, Qwen, Qwen3, LLaVA, Llama} {
		for _, w := range sides {
			for _, h := range sides {
				if n := f.Tokens(w, h); n < 1 || n > 100_000 {
					t.Errorf("%s.Tokens(%d, %d) = %d", f, w, h, n)
				}
			}
		}
	}
}
