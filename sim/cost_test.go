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

// TestTPReducesDecode: sharding the weights over more GPUs shortens a
// memory-bound decode step, but by less than TP× (all-reduces cost); at
// batch 1 the ring latency 2(TP−1)·α grows faster than the weight read
// shrinks, so TP8 is no faster than TP4, as Splitwise measured for
// Llama-2-70B on both A100 and H100.
func TestTPReducesDecode(t *testing.T) {
	t.Parallel()
	step := func(tp int) time.Duration {
		return NewCostModel(hwFor(t, "Llama-2-70B", "H100", tp, BF16, BF16), CostParams{}).StepTime(Batch{Decode: []int{1000}})
	}
	tests := []struct {
		from, to int
		faster   bool
		reason   string
	}{
		{1, 2, true, "halving a 138 GB weight read outweighs 160 all-reduces at TP2"},
		{2, 4, true, "halving 69 GB still outweighs the 3× longer ring latency"},
		{4, 8, false, "the 17 GB saved is less than the 2.3× longer ring latency"},
	}
	for _, tt := range tests {
		prev, got := step(tt.from), step(tt.to)
		if (got < prev) != tt.faster {
			t.Errorf("TP%d %v vs TP%d %v: faster = %v, want %v (%s)", tt.to, got, tt.from, prev, got < prev, tt.faster, tt.reason)
		}
		if got < prev/2 {
			t.Errorf("TP%d %v more than halves TP%d %v despite communication", tt.to, got, tt.from, prev)
		}
	}
}

// TestCommLatencyRing: the all-reduce latency is a ring of 2(TP−1) steps
// of α each, 2·L all-reduces per step; with TP1 there is none. The step
// with α minus the step with α ≈ 0 must be 2·L·2(TP−1)·α.
func TestCommLatencyRing(t *testing.T) {
	t.Parallel()
	const alpha = 20 * time.Microsecond
	tests := []struct {
		tp     int
		reason string
	}{
		{1, "one GPU: no all-reduce"},
		{2, "two ring steps per all-reduce"},
		{8, "fourteen ring steps per all-reduce"},
	}
	b := Batch{Decode: []int{500, 500}}
	for _, tt := range tests {
		hw := hwFor(t, "Llama-3.1-70B", "H100", tt.tp, FP8, FP8)
		p := DefaultCostParams()
		p.CommLatency = alpha
		with := NewCostModel(hw, p).StepTime(b)
		p.CommLatency = 0
		without := NewCostModel(hw, p).StepTime(b)
		want := time.Duration(2*80*2*(max(tt.tp, 1)-1)) * alpha
		if d := with - without - want; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("TP%d: latency share %v, want %v (%s)", tt.tp, with-without, want, tt.reason)
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
