package sim

import (
	"math"
	"testing"
	"time"
)

// hwFor builds Hardware from catalog names, failing the test on a typo.
func hwFor(t testing.TB, model, gpu string, tp int, w, kv Precision) Hardware {
	t.Helper()
	m, err := LookupModel(model)
	if err != nil {
		t.Fatal(err)
	}
	g, err := LookupGPU(gpu)
	if err != nil {
		t.Fatal(err)
	}
	return Hardware{Model: m, GPU: g, TP: tp, Weights: w, KV: kv}
}

// TestDecodeMemoryBound: one decode at short context reads the weights once,
// so the step is weight bytes/(η_m·BW) plus the fixed overheads, within 3 %.
func TestDecodeMemoryBound(t *testing.T) {
	t.Parallel()
	hw := hwFor(t, "Llama-3.1-8B", "H100", 1, BF16, BF16)
	p := DefaultCostParams()
	c := NewCostModel(hw, p)
	got := c.StepTime(Batch{Decode: []int{1}}).Seconds()
	// All weights but the embedding table (gathered, not streamed).
	read := hw.WeightBytes() - hw.Model.LMHeadParams()*hw.Weights.Bytes()
	want := read/(p.EtaMemory*hw.GPU.HBMBW) + p.StepOverhead.Seconds() + p.SeqOverhead.Seconds()
	if math.Abs(got/want-1) > 0.03 {
		t.Errorf("bs1 decode %.3f ms, want ≈ %.3f ms", got*1e3, want*1e3)
	}
	// The measured anchor: 6.44 ms/token on vLLM 0.19.1 (reference README §3).
	if got < 5.5e-3 || got > 7.5e-3 {
		t.Errorf("bs1 decode %.3f ms far from the measured 6.44 ms", got*1e3)
	}
}

// TestPrefillComputeBound: a long prefill is set by FLOPs: 2·params·tokens
// plus causal attention, at η_c and η_a of peak, within 5 %.
func TestPrefillComputeBound(t *testing.T) {
	t.Parallel()
	hw := hwFor(t, "Llama-3.1-8B", "H100", 1, BF16, BF16)
	p := DefaultCostParams()
	c := NewCostModel(hw, p)
	const n = 8192
	m := hw.Model
	// The embedding table is gathered, not multiplied; the LM head runs once.
	lin := (2*n*(m.ArchActiveParams()-2*m.LMHeadParams()) + 2*m.LMHeadParams()) / (p.EtaCompute * hw.GPU.BF16FLOPS)
	attn := 4 * float64(m.Layers*m.Heads*m.HeadDim) * n * (n + 1) / 2 / (p.EtaAttention * hw.GPU.BF16FLOPS)
	got := c.StepTime(Batch{Prefill: []Chunk{{Tokens: n}}}).Seconds()
	if math.Abs(got/(lin+attn)-1) > 0.05 {
		t.Errorf("8k prefill %.1f ms, compute bound %.1f ms", got*1e3, (lin+attn)*1e3)
	}
}

// TestStepTimeMonotone: more work never takes less time.
func TestStepTimeMonotone(t *testing.T) {
	t.Parallel()
	for _, hw := range []Hardware{
		hwFor(t, "Llama-3.1-8B", "H100", 1, BF16, BF16),
		hwFor(t, "Llama-3.3-70B", "H100", 4, FP8, FP8),
		hwFor(t, "Qwen3-30B-A3B", "A100", 1, BF16, BF16),
		hwFor(t, "Mixtral-8x7B", "MI300X", 2, FP8, BF16),
	} {
		c := NewCostModel(hw, CostParams{})
		dec := make([]int, 0, 512)
		prev := time.Duration(0)
		for b := 1; b <= 512; b++ {
			dec = append(dec, 1000)
			got := c.StepTime(Batch{Decode: dec})
			if got < prev {
				t.Fatalf("%s: %d decodes %v < %d decodes %v", hw.Model.Name, b, got, b-1, prev)
			}
			prev = got
		}
		short := c.StepTime(Batch{Decode: []int{100}})
		long := c.StepTime(Batch{Decode: []int{100000}})
		if long <= short {
			t.Errorf("%s: context 100k (%v) not slower than 100 (%v)", hw.Model.Name, long, short)
		}
		if c.StepTime(Batch{}) != 0 {
			t.Errorf("%s: empty batch takes time", hw.Model.Name)
		}
	}
}

// TestAllReduce checks the collective model against its formulas: a
// decode step's small message goes one-shot, costing α whatever the TP;
// a prefill's large message goes two-shot, 2α + 2(TP−1)/TP·M/B; PCIe has
// no one-shot; a mesh gives a pair of GPUs one link of seven; one GPU has
// no all-reduce.
func TestAllReduce(t *testing.T) {
	t.Parallel()
	p := DefaultCostParams()
	alpha := p.CommLatency.Seconds()
	const h = 8192 // Llama-3.1-70B
	msg := func(n float64) float64 { return n * h * actBytes }
	tests := []struct {
		gpu    string
		tp     int
		n      float64
		want   float64 // seconds per all-reduce
		reason string
	}{
		{"H100", 1, 8192, 0, "one GPU: nothing to reduce"},
		{"H100", 2, 1, alpha + msg(1)/(p.EtaLink*450e9), "TP2 decode: one-shot, one peer's 16 KB"},
		{"H100", 8, 1, alpha + 7*msg(1)/(p.EtaLink*450e9), "TP8 decode: one-shot, seven peers' 16 KB, still ≈ α"},
		{"H100", 8, 8192, 2*alpha + 2*7.0/8*msg(8192)/(p.EtaLink*450e9), "TP8 prefill of 8192 tokens: two-shot, bandwidth-bound"},
		{"L40S", 4, 1, 2*alpha + 2*3.0/4*msg(1)/(p.EtaLink*32e9), "PCIe: two-shot even for a decode"},
		{"MI300X", 2, 8192, alpha + msg(8192)/(p.EtaLink*448e9/7), "MI300X pair: one xGMI link of seven"},
		{"MI300X", 8, 8192, 2*alpha + 2*7.0/8*msg(8192)/(p.EtaLink*448e9), "MI300X TP8: all seven links"},
	}
	for _, tt := range tests {
		hw := hwFor(t, "Llama-3.1-70B", tt.gpu, tt.tp, FP8, FP8)
		ar := newAllReduce(hw, p)
		got := ar.time(tt.n) / max(ar.callsPerStep, 1)
		if math.Abs(got-tt.want) > 1e-12+1e-9*tt.want {
			t.Errorf("%s: %.3f µs per all-reduce, want %.3f", tt.reason, got*1e6, tt.want*1e6)
		}
		if tt.tp > 1 && ar.callsPerStep != 160 {
			t.Errorf("%s: %v all-reduces per step, want 2·80", tt.reason, ar.callsPerStep)
		}
	}
}

// TestMoETouchesFewerWeights: at batch 1 an MoE reads only its active
// experts, so it beats a dense model of equal total parameters, and its
// step grows towards the dense cost as the batch touches every expert.
func TestMoETouchesFewerWeights(t *testing.T) {
	t.Parallel()
	moe := hwFor(t, "Mixtral-8x7B", "H100", 1, FP8, FP8)
	dense := moe
	dense.Model.Name = "Mixtral-as-dense"
	dense.Model.Intermediate *= dense.Model.Experts // one FFN as wide as all experts
	dense.Model.Experts, dense.Model.ActiveExperts = 0, 0
	if r := dense.WeightBytes() / moe.WeightBytes(); math.Abs(r-1) > 1e-9 {
		t.Fatalf("dense stand-in has %.3f× the weights", r)
	}
	cm, cd := NewCostModel(moe, CostParams{}), NewCostModel(dense, CostParams{})
	one := Batch{Decode: []int{10}}
	if m, d := cm.StepTime(one), cd.StepTime(one); float64(m) > 0.5*float64(d) {
		t.Errorf("batch 1: MoE %v not well under dense %v", m, d)
	}
	many := Batch{Decode: make([]int, 64)}
	if m, d := cm.StepTime(many), cd.StepTime(many); math.Abs(float64(m)/float64(d)-1) > 0.05 {
		t.Errorf("batch 64 touches all experts: MoE %v should ≈ dense %v", m, d)
	}
}

// TestSharedExpertsAlwaysRead: a decode step reads the shared experts
// whatever the routing, so at batch 1 DeepSeek-V3 (FP8, TP8 on H200)
// takes as much longer than itself without them as reading its one
// shared expert in each of the 58 layers of experts takes, 58·3·7168·2048
// bytes over 8 GPUs at η_m of the bandwidth, within 1%.
func TestSharedExpertsAlwaysRead(t *testing.T) {
	t.Parallel()
	hw := hwFor(t, "DeepSeek-V3", "H200", 8, FP8, BF16)
	bare := hw
	bare.Model.SharedExperts = 0
	p := DefaultCostParams()
	one := Batch{Decode: []int{100}}
	got := (NewCostModel(hw, p).StepTime(one) - NewCostModel(bare, p).StepTime(one)).Seconds()
	want := 58 * 3 * 7168 * 2048 / 8 / (p.EtaMemory * hw.GPU.HBMBW)
	if math.Abs(got/want-1) > 0.01 {
		t.Errorf("the shared experts add %.4f ms to a batch-1 decode, want %.4f ms", got*1e3, want*1e3)
	}
}

// TestCostParamsDefaults: the zero value means the defaults, and a
// non-positive efficiency is replaced rather than dividing by zero.
func TestCostParamsDefaults(t *testing.T) {
	t.Parallel()
	hw := hwFor(t, "Qwen3-8B", "L40S", 1, BF16, BF16)
	if got := NewCostModel(hw, CostParams{}).Params(); got != DefaultCostParams() {
		t.Errorf("zero params became %+v", got)
	}
	p := CostParams{StepOverhead: time.Millisecond}
	got := NewCostModel(hw, p).Params()
	if got.EtaMemory != DefaultCostParams().EtaMemory || got.StepOverhead != time.Millisecond || got.SeqOverhead != 0 {
		t.Errorf("partial params became %+v", got)
	}
}

// BenchmarkStepTime measures one mixed step (a prefill chunk and 256
// decodes); it must not allocate.
func BenchmarkStepTime(b *testing.B) {
	c := NewCostModel(hwFor(b, "Llama-3.3-70B", "H100", 2, FP8, FP8), CostParams{})
	dec := make([]int, 256)
	for i := range dec {
		dec[i] = 1000 + i
	}
	batch := Batch{Prefill: []Chunk{{Tokens: 2048, Context: 4096}}, Decode: dec}
	b.ReportAllocs()
	for b.Loop() {
		_ = c.StepTime(batch)
	}
}

// TestStepTimeNoAlloc: StepTime runs once per simulated step and must not
// allocate. Not parallel: AllocsPerRun panics in parallel tests.
func TestStepTimeNoAlloc(t *testing.T) {
	c := NewCostModel(hwFor(t, "Qwen3-30B-A3B", "H100", 1, BF16, BF16), CostParams{})
	batch := Batch{Prefill: []Chunk{{Tokens: 512}}, Decode: []int{1, 2, 3}}
	if n := testing.AllocsPerRun(100, func() { _ = c.StepTime(batch) }); n != 0 {
		t.Errorf("StepTime allocates %v times", n)
	}
}

// TestGEMMTime checks the one-layer roofline against its formula: weight
// streaming at small n, FLOPs at large n, the FP8 tensor rate, and no time
// for an empty product.
func TestGEMMTime(t *testing.T) {
	t.Parallel()
	p := DefaultCostParams()
	bf := hwFor(t, "Llama-2-70B", "H100", 1, BF16, BF16)
	fp8 := hwFor(t, "Llama-2-70B", "H100", 1, FP8, FP8)
	const h, up = 8192, 2 * 28672
	tests := []struct {
		hw          Hardware
		n, in, out  int
		wantSeconds float64
		reason      string
	}{
		{bf, 1, h, up, (h*up + h + up) * 2 / (p.EtaMemory * 3.35e12),
			"one token: the 8192×57344 weight streamed once, plus tiny activations"},
		{bf, 8192, h, up, 2 * 8192 * h * up / (p.EtaCompute * 989e12),
			"8k tokens: 7.7 TFLOP at η_c of the BF16 peak"},
		{fp8, 8192, h, up, 2 * 8192 * h * up / (p.EtaCompute * 1979e12),
			"FP8 weights run at the FP8 tensor rate"},
		{fp8, 1, h, up, (h*up + h + up) * 1 / (p.EtaMemory * 3.35e12),
			"FP8 weights and activations move one byte a value"},
		{bf, 0, h, up, 0, "no tokens, no time"},
	}
	for _, tt := range tests {
		got := NewCostModel(tt.hw, p).GEMMTime(tt.n, tt.in, tt.out).Seconds()
		if math.Abs(got-tt.wantSeconds) > 1e-9+1e-6*tt.wantSeconds {
			t.Errorf("%s: %.6g s, want %.6g s", tt.reason, got, tt.wantSeconds)
		}
	}
}

// TestGEMMTimeMatchesStepTime: with the overheads, attention and LM head
// set aside, the weight matmuls of a dense decode step are the model's
// GEMMs (QKV, O, gate+up, down) of every layer streamed once, so
// L·Σ GEMMTime(1, …) ≈ StepTime's linear part within 0.1 %.
func TestGEMMTimeMatchesStepTime(t *testing.T) {
	t.Parallel()
	hw := hwFor(t, "Llama-2-70B", "A100", 1, BF16, BF16)
	c := NewCostModel(hw, CostParams{})
	m := hw.Model
	q, kv := m.Heads*m.HeadDim, m.KVHeads*m.HeadDim
	var layer time.Duration
	for _, s := range [][2]int{{m.Hidden, q + 2*kv}, {q, m.Hidden}, {m.Hidden, 2 * m.Intermediate}, {m.Intermediate, m.Hidden}} {
		layer += c.GEMMTime(1, s[0], s[1])
	}
	head := m.LMHeadParams() * hw.Weights.Bytes() / (c.Params().EtaMemory * hw.GPU.HBMBW)
	want := c.linearTime(1, 1) - head
	if got := float64(m.Layers) * layer.Seconds(); math.Abs(got/want-1) > 1e-3 {
		t.Errorf("80 layers of GEMMs %.3f ms, StepTime's linear part %.3f ms", got*1e3, want*1e3)
	}
}
