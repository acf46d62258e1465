package sim_test

import (
	"math"
	"surge/sim"
	"surge/sim/validation"
	"testing"
	"time"
)

// TestStaticDecode checks the mean decode step of a static batch against
// StepTime: one step is that step, the mean lies between the first and
// last step, and no steps take no time.
func TestStaticDecode(t *testing.T) {
	t.Parallel()
	c := sim.NewCostModel(staticHW(t, "H100"), sim.CostParams{})
	dec := func(b, ctx int) time.Duration {
		d := make([]int, b)
		for i := range d {
			d[i] = ctx
		}
		return c.StepTime(sim.Batch{Decode: d})
	}
	if got, want := staticDecode(c, 8, 512, 1), dec(8, 512); got != want {
		t.Errorf("osl 1: %v, want the single step %v", got, want)
	}
	got, first, last := staticDecode(c, 32, 4096, 128), dec(32, 4096), dec(32, 4096+127)
	if got <= first || got >= last {
		t.Errorf("mean step %v outside (%v, %v): the KV read grows with each step", got, first, last)
	}
	if got := staticDecode(c, 8, 512, 0); got != 0 {
		t.Errorf("osl 0: %v, want 0", got)
	}
}

// TestStaticPrefill checks the one-step prefill of a static batch: in the
// compute-bound regime doubling the batch doubles the step (within 3 %,
// the fixed costs), and b prompts of isl tokens cost less than one prompt
// of b·isl because causal attention stays within each sequence.
func TestStaticPrefill(t *testing.T) {
	t.Parallel()
	c := sim.NewCostModel(staticHW(t, "A100"), sim.CostParams{})
	t16, t32 := staticPrefill(c, 16, 512), staticPrefill(c, 32, 512)
	if r := float64(t32) / float64(t16); math.Abs(r-2) > 0.06 {
		t.Errorf("32 prompts take %.3f× 16 prompts, want ≈ 2", r)
	}
	four := staticPrefill(c, 4, 4096)
	one := c.StepTime(sim.Batch{Prefill: []sim.Chunk{{Tokens: 4 * 4096}}})
	if four >= one {
		t.Errorf("4 prompts of 4096 (%v) not cheaper than one of 16384 (%v)", four, one)
	}
}

// TestOpShapes checks the operator shapes against those Vidur's rows
// state for Llama-2-70B: h=8192, q=8192, kv=1024, I=28672, gate and up
// fused into 8192×57344.
func TestOpShapes(t *testing.T) {
	t.Parallel()
	m, err := sim.LookupModel("Llama-2-70B")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]opShape{
		"attn_pre_proj": {8192, 8192 + 2*1024},
		"mlp_up_proj":   {8192, 57344},
		"mlp_down_proj": {28672, 8192},
	}
	got := opShapes(m)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %v, want %v", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d operators, want %d", len(got), len(want))
	}
}

// staticHW is Llama-2-70B on two of gpu in BF16, as a Splitwise row names it.
func staticHW(t *testing.T, gpu string) sim.Hardware {
	t.Helper()
	hw, why := rowHardware(validation.Row{Model: "Llama-2-70B", GPU: gpu, GPUCount: 2})
	if why != "" {
		t.Fatal(why)
	}
	return hw
}
