package sim

import (
	"math"
	"strings"
	"testing"
)

func TestLookupModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		reason   string
	}{
		{"Llama-3.1-8B", "Llama-3.1-8B", "canonical name"},
		{"meta-llama/Llama-3.1-8B-Instruct", "Llama-3.1-8B", "HF id with org and -Instruct"},
		{"LLAMA-3.3-70B-INSTRUCT", "Llama-3.3-70B", "case-insensitive alias"},
		{"mistralai/Mixtral-8x7B-Instruct-v0.1", "Mixtral-8x7B", "HF id of the instruct model"},
		{"qwen/qwen3-30b-a3b", "Qwen3-30B-A3B", "lower-case HF id"},
		{"Qwen/Qwen3-Reranker-8B", "Qwen3-8B", "the reranker of the same architecture"},
		{"Qwen/Qwen3-235B-A22B", "Qwen3-235B-A22B", "HF id of the large MoE"},
		{"Llama-2-70B-chat", "Llama-2-70B", "calibration spelling of the chat model (same architecture)"},
		{"meta-llama/Llama-2-70b-chat-hf", "Llama-2-70B", "HF id of the chat model"},
		{"Llama-2-70B", "Llama-2-70B", "Splitwise's name; not confused with Llama-3.x 70B"},
		{"Mixtral-8x7B-Instruct", "Mixtral-8x7B", "MLPerf's name for the instruct model"},
		{"meta-llama/Llama-3.1-405B-Instruct-FP8", "Llama-3.1-405B", "HF id of the FP8 checkpoint"},
	}
	for _, tt := range tests {
		m, err := LookupModel(tt.in)
		if err != nil || m.Name != tt.want {
			t.Errorf("LookupModel(%q) = %q, %v; want %q (%s)", tt.in, m.Name, err, tt.want, tt.reason)
		}
	}
	_, err := LookupModel("gpt-5")
	if err == nil || !strings.Contains(err.Error(), "Qwen3-32B") {
		t.Errorf("unknown model error %v should list the catalog", err)
	}
}

func TestLookupGPU(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		reason   string
	}{
		{"H100", "H100-SXM", "short name"},
		{"h100-sxm", "H100-SXM", "case-insensitive"},
		{"A100-80GB-SXM", "A100-80GB", "form factor suffix as in the calibration data"},
		{"A100-80GB", "A100-80GB", "canonical name, as in Vidur's rows"},
		{"mi300x", "MI300X", "AMD"},
		{"GB200-NVL72", "GB200", "a GPU of an NVL72 rack"},
		{"GH200", "GH200-96GB", "the first GH200, with HBM3"},
		{"RTX4090", "RTX-4090", "GeForce without dashes"},
		{"rtx-pro-6000-blackwell", "RTX-PRO-6000", "the professional Blackwell card, by its full name"},
	}
	for _, tt := range tests {
		g, err := LookupGPU(tt.in)
		if err != nil || g.Name != tt.want {
			t.Errorf("LookupGPU(%q) = %q, %v; want %q (%s)", tt.in, g.Name, err, tt.want, tt.reason)
		}
	}
	if _, err := LookupGPU("TPUv5"); err == nil || !strings.Contains(err.Error(), "B200") {
		t.Errorf("unknown gpu error %v should list the catalog", err)
	}
}

// TestModelParams checks that the architecture fields reproduce the
// published parameter counts, total and active, within 2 %.
func TestModelParams(t *testing.T) {
	t.Parallel()
	for _, m := range Models() {
		if r := m.ArchParams() / m.Params; math.Abs(r-1) > 0.02 {
			t.Errorf("%s: architecture gives %.3g params, published %.3g", m.Name, m.ArchParams(), m.Params)
		}
		if r := m.ArchActiveParams() / m.ActiveParams; math.Abs(r-1) > 0.02 {
			t.Errorf("%s: architecture gives %.3g active params, published %.3g", m.Name, m.ArchActiveParams(), m.ActiveParams)
		}
		if m.IsMoE() != (m.ActiveParams < m.Params) {
			t.Errorf("%s: MoE flag disagrees with active params", m.Name)
		}
	}
}

func TestHardwareMemory(t *testing.T) {
	t.Parallel()
	l8, _ := LookupModel("Llama-3.1-8B")
	l70, _ := LookupModel("Llama-3.1-70B")
	l2, _ := LookupModel("Llama-2-70B")
	q235, _ := LookupModel("Qwen3-235B-A22B")
	ds, _ := LookupModel("DeepSeek-V3")
	h200, _ := LookupGPU("H200")
	h100, _ := LookupGPU("H100")
	a100, _ := LookupGPU("A100")
	b200, _ := LookupGPU("B200")
	rtx, _ := LookupGPU("RTX-4090")
	tests := []struct {
		hw         Hardware
		weightGB   float64
		kvPerToken float64
		minBlocks  int
		maxBlocks  int
		reason     string
	}{
		{Hardware{Model: l8, GPU: h100}, 16.06, 131072, 25000, 32000,
			"8B BF16: 2·32·8·128·2 B/token; vLLM reports ~28k blocks (≈ 450k tokens) on H100 at 0.9"},
		{Hardware{Model: l8, GPU: h100, KV: FP8}, 16.06, 65536, 50000, 64000, "FP8 KV halves bytes per token, doubles blocks"},
		{Hardware{Model: l70, GPU: h100, TP: 2, Weights: FP8, KV: FP8}, 36.33, 81920, 27000, 33000,
			"70B FP8 TP2: layers at 1 byte, embedding and LM head (2.1 B params) at 2; 4 KV heads per GPU at 1 byte; " +
				"(77.3 − 36.3 − 2.6 GB)/(16·81920 B) ≈ 29k blocks"},
		{Hardware{Model: l8, GPU: rtx}, 16.06, 131072, 2000, 2600,
			"8B BF16 on an RTX 4090: (0.9·24 GiB − 16.1 − 2.3 GB)/(16·131072 B) ≈ 2.3k blocks, 36k tokens"},
		{Hardware{Model: l70, GPU: b200, Weights: FP4, KV: FP8}, 42.76, 327680 / 2, 40000, 48000,
			"70B NVFP4 on one B200: 68.4 B layer params at 4.5 bits, 2.1 B at 2 bytes; (162 − 42.8 − 3.1 GB)/(16·163840 B) ≈ 44k blocks"},
		{Hardware{Model: l70, GPU: h100}, 141.2, 327680, 0, 0, "70B BF16 does not fit one H100: no blocks"},
		{Hardware{Model: l2, GPU: a100, TP: 2}, 68.98, 163840, 1900, 2500,
			"Llama-2-70B FP16 TP2 on A100: (77.3 − 69.0 − 2.6 GB)/(16·163840 B) ≈ 2.2k blocks (35k tokens), " +
				"room for Splitwise's largest TP2 batch, 32 × 640 tokens"},
		{Hardware{Model: q235, GPU: h100}, 470.1, 192512, 0, 0, "Qwen3-235B BF16: 2·94·4·128·2 B/token as in the reference README; does not fit"},
		{Hardware{Model: q235, GPU: h100, TP: 8, Weights: FP8, KV: FP8}, 29.54, 24064, 110000, 125000,
			"Qwen3-235B FP8 TP8: 4 KV heads replicate to 1 per GPU at 1 B; (77.3 − 29.5 − 2.3 GB)/(16·24064 B) ≈ 118k blocks"},
		{Hardware{Model: ds, GPU: h200, TP: 8, Weights: FP8}, 84.10, 61 * 576 * 2, 35000, 37500,
			"DeepSeek-V3 FP8 TP8 on H200: 669.1 B layer params at 1 byte, 1.9 B at 2; MLA's latent (512 + 64) whole on every GPU; " +
				"(126.9 − 84.1 − 2.2 GB)/(16·70272 B) ≈ 36k blocks"},
	}
	for _, tt := range tests {
		if got := tt.hw.WeightBytes() / 1e9; math.Abs(got-tt.weightGB) > 0.1 {
			t.Errorf("%s: weights %.2f GB, want %.2f", tt.reason, got, tt.weightGB)
		}
		if got := tt.hw.KVBytesPerToken(); got != tt.kvPerToken {
			t.Errorf("%s: KV %v B/token, want %v", tt.reason, got, tt.kvPerToken)
		}
		if got := tt.hw.KVBlocks(0); got < tt.minBlocks || got > tt.maxBlocks {
			t.Errorf("%s: %d blocks, want [%d, %d]", tt.reason, got, tt.minBlocks, tt.maxBlocks)
		}
	}
}

// TestMLA holds DeepSeek-V3's multi-head latent attention to its
// shapes, worked by hand: 187,105,280 attention parameters a layer
// (7168·1536 + 1536·128·192 + 7168·576 + 512·128·256 + 128·128·7168),
// 670.9 B parameters with 37.4 B active (3 dense layers of I = 18,432, 58
// of 256 routed experts and 1 shared, I = 2,048), and attention FLOPs per
// context position of 2·128·(192 + 128) in prefill and 2·128·(576 + 512)
// in decode, where Llama-3.1-8B's GQA has 4·32·128 for both.
func TestMLA(t *testing.T) {
	t.Parallel()
	ds, err := LookupModel("deepseek-r1")
	if err != nil || ds.Name != "DeepSeek-V3" {
		t.Fatalf("deepseek-r1: %v, %v; want DeepSeek-V3's architecture", ds.Name, err)
	}
	if got := ds.AttentionParams(); got != 187105280 {
		t.Errorf("attention params %v a layer, want 187105280", got)
	}
	if got, act := ds.ArchParams(), ds.ArchActiveParams(); got != 670918967296 || act != 37444845568 {
		t.Errorf("params %v, active %v; want 670918967296 and 37444845568", got, act)
	}
	if pre, dec := ds.AttentionFLOPs(); pre != 2*128*320 || dec != 2*128*1088 {
		t.Errorf("attention FLOPs %v prefill, %v decode; want %v and %v", pre, dec, 2*128*320, 2*128*1088)
	}
	l8, _ := LookupModel("Llama-3.1-8B")
	if pre, dec := l8.AttentionFLOPs(); pre != 4*32*128 || dec != pre {
		t.Errorf("Llama-3.1-8B attention FLOPs %v, %v; want %v for both", pre, dec, 4*32*128)
	}
}

func TestKVHeadsReplicated(t *testing.T) {
	t.Parallel()
	// Qwen3-30B-A3B has 4 KV heads: at TP8 each GPU still holds one head.
	m, _ := LookupModel("Qwen3-30B-A3B")
	g, _ := LookupGPU("H100")
	h4 := Hardware{Model: m, GPU: g, TP: 4}
	h8 := Hardware{Model: m, GPU: g, TP: 8}
	if h4.KVBytesPerToken() != h8.KVBytesPerToken() {
		t.Errorf("TP8 KV/token %v != TP4 %v; heads must replicate, not split", h8.KVBytesPerToken(), h4.KVBytesPerToken())
	}
}
