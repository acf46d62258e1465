package harness

import (
	"strings"
	"testing"

	"surge/sim"
)

// TestEnginePrecision: --dtype and --kv-cache-dtype reach the hardware
// the engine simulates, its KV cache size and its name; a precision the
// GPU cannot run is refused naming the flag and what works.
func TestEnginePrecision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		eng     Engine
		weights sim.Precision
		kv      sim.Precision
		target  string
		errs    []string
	}{
		{"70B in FP8 on one H200: BF16 KV (auto)", Engine{Model: "llama-3.1-70b", GPU: "h200", TP: 1, Settings: EngineSettings{Dtype: "fp8"}},
			sim.FP8, sim.BF16, "sim://Llama-3.1-70B@H200x1?dtype=fp8", nil},
		{"FP8 KV is named", Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1, Settings: EngineSettings{KVCacheDtype: "fp8"}},
			sim.BF16, sim.FP8, "sim://Llama-3.1-8B@H100-SXMx1?kv-cache-dtype=fp8", nil},
		{"auto KV follows FP16 weights", Engine{Model: "llama-3.1-8b", GPU: "a100", TP: 1, Settings: EngineSettings{Dtype: "float16", KVCacheDtype: "auto"}},
			sim.FP16, sim.FP16, "sim://Llama-3.1-8B@A100-80GBx1?dtype=fp16", nil},
		{"70B in BF16 on one H200 does not fit", Engine{Model: "llama-3.1-70b", GPU: "h200", TP: 1},
			0, 0, "", []string{"does not fit on 1×H200", "--dtype fp8 --tp 1"}},
		{"FP8 on an A100", Engine{Model: "llama-3.1-8b", GPU: "a100", TP: 1, Settings: EngineSettings{Dtype: "fp8"}},
			0, 0, "", []string{"--dtype fp8: fp8 weights need FP8 tensor cores", "A100-80GB (Ampere)"}},
		{"FP4 on an H100", Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1, Settings: EngineSettings{Dtype: "fp4"}},
			0, 0, "", []string{"--dtype fp4", "B200, GB200, RTX-PRO-6000 have them"}},
		{"gpt-oss-120b in its MXFP4 on one H100", Engine{Model: "openai/gpt-oss-120b", GPU: "h100", TP: 1},
			sim.MXFP4, sim.BF16, "sim://gpt-oss-120b@H100-SXMx1?dtype=mxfp4", nil},
		{"gpt-oss-120b in BF16 names it", Engine{Model: "gpt-oss-120b", GPU: "h100", TP: 4, Settings: EngineSettings{Dtype: "bf16"}},
			sim.BF16, sim.BF16, "sim://gpt-oss-120b@H100-SXMx4?dtype=bf16", nil},
		{"gpt-oss-120b in BF16 on one H100 does not fit", Engine{Model: "gpt-oss-120b", GPU: "h100", TP: 1, Settings: EngineSettings{Dtype: "bf16"}},
			0, 0, "", []string{"does not fit on 1×H100-SXM", "--tp 4"}},
		{"MXFP4 on a dense model", Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1, Settings: EngineSettings{Dtype: "mxfp4"}},
			0, 0, "", []string{"--dtype mxfp4", "Llama-3.1-8B is dense"}},
		{"an unknown dtype", Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1, Settings: EngineSettings{Dtype: "int3", KVCacheDtype: "fp2"}},
			0, 0, "", []string{`--dtype: unknown precision "int3"`, `--kv-cache-dtype: unknown precision "fp2"`}},
	}
	for _, tt := range tests {
		v, err := NewVirtual(tt.eng, 1, "round-robin")
		if tt.errs != nil {
			for _, want := range tt.errs {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: error %v, want it to say %q", tt.name, err, want)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		hw := v.Config.Cost.(*sim.CostModel).Hardware()
		if hw.Weights != tt.weights || hw.KV != tt.kv || v.Target != tt.target {
			t.Errorf("%s: %v weights, %v KV, target %q; want %v, %v, %q", tt.name, hw.Weights, hw.KV, v.Target, tt.weights, tt.kv, tt.target)
		}
		if want := hw.KVBlocks(0); v.Config.Engine.NumBlocks != want {
			t.Errorf("%s: %d KV blocks, want %d for %v KV", tt.name, v.Config.Engine.NumBlocks, want, hw.KV)
		}
		srv, err := NewServer(tt.eng)
		if err != nil || srv.Hardware.Weights != hw.Weights || srv.Hardware.KV != hw.KV || srv.Engine.NumBlocks != v.Config.Engine.NumBlocks {
			t.Errorf("%s: server %v/%v, %d blocks, %v; want the simulation's %v/%v, %d",
				tt.name, srv.Hardware.Weights, srv.Hardware.KV, srv.Engine.NumBlocks, err, hw.Weights, hw.KV, v.Config.Engine.NumBlocks)
		}
	}
}

// TestEnginePolicy: --engine trtllm runs TensorRT-LLM's no-evict policy
// with its defaults (2048 sequences, a KV cache of 0.9 of the memory the
// weights and activations leave) unless flags say otherwise, and names
// itself in the target; --engine sglang takes SGLang's memory fraction
// for its TP degree; an unknown engine is refused.
func TestEnginePolicy(t *testing.T) {
	t.Parallel()
	base := Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1}
	hw, err := base.hardware("sim")
	if err != nil {
		t.Fatal(err)
	}
	hw8 := hw
	hw8.TP = 8
	for _, tt := range []struct {
		name     string
		settings EngineSettings
		want     sim.EngineConfig // Policy, MaxNumSeqs, MaxNumBatchedTokens, NumBlocks
		target   string
		err      string
	}{
		{"vLLM by default", EngineSettings{},
			sim.EngineConfig{Policy: sim.VLLM, MaxNumSeqs: 256, MaxNumBatchedTokens: 8192, NumBlocks: hw.KVBlocks(0.9)},
			"sim://Llama-3.1-8B@H100-SXMx1", ""},
		{"TensorRT-LLM's defaults", EngineSettings{Engine: "trtllm"},
			sim.EngineConfig{Policy: sim.NoEvict, MaxNumSeqs: 2048, MaxNumBatchedTokens: 8192, NumBlocks: hw.KVBlocksOfFree(0.9)},
			"sim://Llama-3.1-8B@H100-SXMx1?engine=trtllm", ""},
		{"a setting given overrides the engine's", EngineSettings{Engine: "TensorRT-LLM", MaxNumSeqs: 64},
			sim.EngineConfig{Policy: sim.NoEvict, MaxNumSeqs: 64, MaxNumBatchedTokens: 8192, NumBlocks: hw.KVBlocksOfFree(0.9)},
			"sim://Llama-3.1-8B@H100-SXMx1?engine=trtllm&max-num-seqs=64", ""},
		{"SGLang's defaults on one GPU", EngineSettings{Engine: "sglang"},
			sim.EngineConfig{Policy: sim.SGLang, MaxNumSeqs: 4096, MaxNumBatchedTokens: 8192, NumBlocks: hw.KVBlocks(0.88)},
			"sim://Llama-3.1-8B@H100-SXMx1?engine=sglang", ""},
		{"SGLang's defaults on eight", EngineSettings{Engine: "sglang"},
			sim.EngineConfig{Policy: sim.SGLang, MaxNumSeqs: 4096, MaxNumBatchedTokens: 8192, NumBlocks: hw8.KVBlocks(0.81)},
			"sim://Llama-3.1-8B@H100-SXMx8?engine=sglang", ""},
		{"an unknown engine", EngineSettings{Engine: "tgi"}, sim.EngineConfig{}, "", `--engine: unknown engine "tgi" (want vllm, sglang or trtllm)`},
	} {
		eng := base
		if strings.Contains(tt.name, "eight") {
			eng.TP = 8
		}
		eng.Settings = tt.settings
		v, err := NewVirtual(eng, 1, "round-robin")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		ec := v.Config.Engine
		got := sim.EngineConfig{Policy: ec.Policy, MaxNumSeqs: ec.MaxNumSeqs, MaxNumBatchedTokens: ec.MaxNumBatchedTokens, NumBlocks: ec.NumBlocks}
		if got != tt.want || v.Target != tt.target {
			t.Errorf("%s: %+v, target %q; want %+v, %q", tt.name, got, v.Target, tt.want, tt.target)
		}
	}
}
