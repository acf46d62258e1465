package sim

import (
	"strings"
	"testing"
)

func TestParsePrecision(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want Precision
	}{
		{"bf16", BF16}, {"BFloat16", BF16}, {"fp16", FP16}, {"half", FP16}, {"float16", FP16},
		{"FP8", FP8}, {"fp8_e4m3", FP8}, {"fp8_e5m2", FP8}, {"fp4", FP4}, {"nvfp4", FP4}, {"MXFP4", MXFP4},
	} {
		got, err := ParsePrecision(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParsePrecision(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if back, _ := ParsePrecision(got.String()); back != got {
			t.Errorf("%v does not read back from its String %q", got, got.String())
		}
	}
	if _, err := ParsePrecision("int4"); err == nil || !strings.Contains(err.Error(), "bf16, fp16, fp8, fp4 or mxfp4") {
		t.Errorf("ParsePrecision(int4) error %v should list the precisions", err)
	}
}

// TestCheckPrecision: FP8 weights need Hopper, Ada or CDNA3 tensor cores,
// FP4 weights Blackwell's; the error names GPUs that have them and what
// the GPU asked for can do. A KV cache is stored, not computed on, so FP8
// KV works on every GPU; FP4 KV is refused.
func TestCheckPrecision(t *testing.T) {
	t.Parallel()
	l70, _ := LookupModel("Llama-3.1-70B")
	for _, tt := range []struct {
		gpu     string
		w, kv   Precision
		wantErr []string // substrings; nil for no error
	}{
		{"H100", FP8, FP8, nil},
		{"H200", FP8, BF16, nil},
		{"L40S", FP8, FP8, nil},
		{"MI300X", FP8, FP8, nil},
		{"B200", FP4, FP8, nil},
		{"A100", FP16, FP8, nil},
		{"A100", FP8, BF16, []string{"fp8 weights need FP8 tensor cores", "A100-80GB (Ampere)", "H100-SXM, H200,", "MI300X have them", "A100-80GB computes in bf16, fp16"}},
		{"H100", FP4, BF16, []string{"fp4 weights need FP4 tensor cores", "H100-SXM (Hopper)", "B200, GB200, RTX-PRO-6000 have them", "bf16, fp16, fp8"}},
		{"B200", BF16, FP4, []string{"KV cache in fp4"}},
	} {
		g, err := LookupGPU(tt.gpu)
		if err != nil {
			t.Fatal(err)
		}
		err = Hardware{Model: l70, GPU: g, Weights: tt.w, KV: tt.kv}.CheckPrecision()
		if tt.wantErr == nil {
			if err != nil {
				t.Errorf("%s %v/%v: %v, want nil", tt.gpu, tt.w, tt.kv, err)
			}
			continue
		}
		for _, want := range tt.wantErr {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %v/%v: error %v, want it to say %q", tt.gpu, tt.w, tt.kv, err, want)
			}
		}
	}
}

// TestSeventyBOnOneH200: Llama-3.1-70B does not fit one H200 in BF16
// (141 GB of weights in 141 GB) but does in FP8, with room for its whole
// 128k context in the KV cache.
func TestSeventyBOnOneH200(t *testing.T) {
	t.Parallel()
	l70, _ := LookupModel("Llama-3.1-70B")
	h200, _ := LookupGPU("H200")
	bf16 := Hardware{Model: l70, GPU: h200}
	if err := bf16.FitError(0); err == nil {
		t.Errorf("70B BF16 on one H200 fits (%d blocks); its weights alone fill the GPU", bf16.KVBlocks(0))
	}
	fp8 := Hardware{Model: l70, GPU: h200, Weights: FP8}
	if err := fp8.FitError(0); err != nil {
		t.Errorf("70B FP8 on one H200: %v", err)
	}
	if got := fp8.KVTokens(0); got < l70.MaxContext {
		t.Errorf("70B FP8 on one H200 holds %d KV tokens, less than its %d context", got, l70.MaxContext)
	}
}

// TestPrecisionSpeed: at a prefill of 8192 tokens (compute-bound) FP8
// weights on an H100 run the linear layers on a tensor rate twice BF16's,
// and FP4 on a B200 twice FP8's; in a batch-1 decode (bandwidth-bound) the
// step shrinks with the bytes, about half for FP8.
func TestPrecisionSpeed(t *testing.T) {
	t.Parallel()
	step := func(gpu string, w Precision, b Batch) float64 {
		return NewCostModel(hwFor(t, "Llama-3.1-70B", gpu, 2, w, BF16), CostParams{}).StepTime(b).Seconds()
	}
	prefill := Batch{Prefill: []Chunk{{Tokens: 8192}}}
	decode := Batch{Decode: []int{100}}
	for _, tt := range []struct {
		gpu        string
		fast, slow Precision
		b          Batch
		lo, hi     float64
		why        string
	}{
		{"H100", FP8, BF16, prefill, 0.5, 0.75, "FP8 prefill: half the linear time, attention unchanged"},
		{"B200", FP4, FP8, prefill, 0.5, 0.8, "FP4 prefill: half the linear time again"},
		{"H100", FP8, BF16, decode, 0.5, 0.8, "FP8 decode: half the weight bytes, fixed costs unchanged"},
	} {
		r := step(tt.gpu, tt.fast, tt.b) / step(tt.gpu, tt.slow, tt.b)
		if r < tt.lo || r > tt.hi {
			t.Errorf("%s: %v/%v step ratio %.2f, want [%.2f, %.2f]", tt.why, tt.fast, tt.slow, r, tt.lo, tt.hi)
		}
	}
}
