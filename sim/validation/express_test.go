package validation

import (
	"strings"
	"testing"
)

func intp(n int) *int           { return &n }
func floatp(x float64) *float64 { return &x }

// TestExpress: each kind of row maps to the flags and workload that run
// it, or to the reason it cannot run.
func TestExpress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		row   Row
		flags string // "" when skipped
		spec  string // a substring of the spec
		why   string // a substring of the reason
	}{
		{"trtllm offline grid", Row{GPU: "H100-SXM", GPUCount: 2, Model: "Llama-3.1-70B-Instruct", Precision: "FP8",
			Engine: "TensorRT-LLM v0.19 (PyTorch backend)", ISL: intp(128), OSL: intp(128), LoadKind: "offline",
			Metric: "output_throughput", Unit: "tokens/s", Notes: "kv_cache_free_gpu_mem_fraction usually 0.95; TP2"},
			"--engine-model Llama-3.1-70B-Instruct --gpu H100-SXM --tp 2 --engine trtllm --dtype fp8 --kv-cache-dtype fp8 --gpu-memory-utilization 0.95",
			"requests: 30000\n", ""},
		{"splitwise static batch", Row{GPU: "A100-80GB-SXM", GPUCount: 4, Model: "Llama-2-70B", Precision: "FP16",
			Engine: "unspecified (Splitwise characterization)", ISL: intp(1024), OSL: intp(128), LoadKind: "concurrency",
			LoadValue: floatp(16), Metric: "prefill_time_batch", Unit: "ms"},
			"--engine-model Llama-2-70B --gpu A100-80GB-SXM --tp 4 --dtype fp16 --max-num-seqs 256 --max-num-batched-tokens 16384 --no-prefix-caching",
			"requests: 16\n", ""},
		{"vllm concurrency from notes", Row{GPU: "H100-SXM", GPUCount: 1, Model: "Llama-3.1-8B", Precision: "BF16",
			Engine: "vLLM 0.19.1", ISL: intp(20000), OSL: intp(2000), LoadKind: "concurrency", LoadValue: floatp(8),
			Metric: "output_throughput", Unit: "tokens/s", Notes: "150 requests at concurrency 8"},
			"--engine-model Llama-3.1-8B --gpu H100-SXM --tp 1", "requests: 150\n", ""},
		{"rate", Row{GPU: "H100-SXM", GPUCount: 4, Model: "Llama-3-70B", Precision: "BF16", Engine: "vLLM 0.6.0",
			ISL: intp(462), OSL: intp(256), LoadKind: "rate", LoadValue: floatp(4), Metric: "tpot_mean", Unit: "ms", Notes: "500 prompts; Poisson"},
			"--engine-model Llama-3-70B --gpu H100-SXM --tp 4", "rate: 4/s, input: 462, output: 256", ""},
		{"sglang", Row{GPU: "H100-SXM", GPUCount: 1, Model: "Llama-3-8B", Engine: "SGLang v0.3.0", ISL: intp(462), OSL: intp(16),
			LoadKind: "offline", Metric: "request_throughput"}, "--engine-model Llama-3-8B --gpu H100-SXM --tp 1 --engine sglang", "input: 462", ""},
		{"sharegpt", Row{GPU: "H100-SXM", GPUCount: 1, Model: "Llama-3-8B", Engine: "vLLM 0.6.0", ISL: intp(202), OSL: intp(179),
			LoadKind: "offline", Metric: "request_throughput", Notes: "ShareGPT mean"}, "", "", "ShareGPT"},
		{"sharegpt means without the name", Row{GPU: "H100-SXM", GPUCount: 1, Model: "Llama-3-8B", Engine: "vLLM 0.5.3", ISL: intp(202), OSL: intp(179),
			LoadKind: "rate", LoadValue: floatp(32), Metric: "tpot_mean", Notes: "TPOT at 32 QPS"}, "", "", "ShareGPT"},
		{"gemm", Row{GPU: "H100", Model: "Llama-2-70B (one layer, TP1 shapes)", ISL: intp(64), OSL: intp(0), LoadKind: "offline",
			Metric: "op_time_mlp_up_proj"}, "", "", "GEMM"},
		{"deepseek", Row{GPU: "H800", GPUCount: 8, Model: "DeepSeek-V3/R1", Engine: "DeepSeek in-house", ISL: intp(1000), OSL: intp(1),
			LoadKind: "offline", Metric: "output_throughput"}, "", "", "not in the catalog"},
		{"past the model's context", Row{GPU: "H100-SXM", GPUCount: 2, Model: "Llama-2-70B", Precision: "FP16",
			Engine: "unspecified (Splitwise characterization)", ISL: intp(4096), OSL: intp(128), LoadKind: "concurrency",
			LoadValue: floatp(1), Metric: "decode_step_time", Unit: "ms"}, "", "", "exceed Llama-2-70B's context of 4096"},
		{"no lengths", Row{GPU: "H100-SXM", GPUCount: 8, Model: "Llama-2-70B-chat", LoadKind: "offline", OSL: intp(290),
			Metric: "output_throughput"}, "", "", "no fixed prompt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, why := Express(tt.row)
			if tt.flags == "" {
				if why == "" || !strings.Contains(why, tt.why) {
					t.Errorf("reason %q, want one with %q", why, tt.why)
				}
				return
			}
			if why != "" {
				t.Fatalf("not expressed: %s", why)
			}
			if got := c.Flags(); got != tt.flags {
				t.Errorf("flags\n %s\nwant\n %s", got, tt.flags)
			}
			if !strings.Contains(c.Spec(), tt.spec) {
				t.Errorf("spec\n%s\nlacks %q", c.Spec(), tt.spec)
			}
		})
	}
}

// TestStaticBatchOneStep: a static batch's flags let the engine prefill
// the whole batch in one step, so every request of it gets its first
// token at the same instant, as the measured static batch did.
func TestStaticBatchOneStep(t *testing.T) {
	t.Parallel()
	c, why := Express(Row{GPU: "H100-SXM", GPUCount: 2, Model: "Llama-2-70B", Precision: "FP16",
		Engine: "unspecified (Splitwise characterization)", ISL: intp(2048), OSL: intp(4), LoadKind: "concurrency",
		LoadValue: floatp(8), Metric: "prefill_time_batch", Unit: "ms"})
	if why != "" {
		t.Fatal(why)
	}
	sum, err := c.Summarize(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ttft := sum.All.Latency.TTFT
	if ttft.N != 8 || ttft.Min != ttft.Max {
		t.Errorf("TTFT of %d requests from %.0f to %.0f µs, want 8 equal", ttft.N, ttft.Min, ttft.Max)
	}
	// 16k tokens of a 70B model on two H100s: hundreds of ms, in the
	// row's unit.
	if v, err := c.Value(sum); err != nil || v < 100 || v > 5000 {
		t.Errorf("prefill_time_batch %.4g ms (%v), want 100–5000 ms", v, err)
	}
}
