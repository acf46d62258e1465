package sim

import (
	"testing"
	"time"
)

// TestGptOss checks gpt-oss-120b's shapes worked by hand: attention
// 2·2880·4096 + 2·2880·512 = 26,542,080 a layer, experts 3·2880·2880 =
// 24,883,200, 116,775,567,360 parameters; in its checkpoint's MXFP4 on
// one GPU, 114.66 B expert parameters at 4.25 bits, the rest in BF16:
// 65,141,637,120 B, which fits one 80 GB H100 (in BF16 it needs 234 GB);
// KV in BF16, 2·18·8·64·2 = 36,864 B a token in the 18 full-attention
// layers and as much in the 18 sliding ones, whose 128-token window
// spans at most 9 blocks.
func TestGptOss(t *testing.T) {
	t.Parallel()
	m, err := LookupModel("openai/gpt-oss-120b")
	if err != nil {
		t.Fatal(err)
	}
	if got := m.AttentionParams(); got != 26542080 {
		t.Errorf("attention params %v a layer, want 26542080", got)
	}
	if got := m.ArchParams(); got != 116775567360 {
		t.Errorf("params %v, want 116775567360", got)
	}
	if m.Native != MXFP4 {
		t.Errorf("native precision %v, want mxfp4", m.Native)
	}
	h100, _ := LookupGPU("H100")
	hw := Hardware{Model: m, GPU: h100, Weights: MXFP4, KV: BF16}
	if err := hw.CheckPrecision(); err != nil {
		t.Fatal(err)
	}
	if got := hw.WeightBytes(); got != 65141637120 {
		t.Errorf("MXFP4 weights %v B, want 65141637120", got)
	}
	if got := hw.KVBlocks(0); got <= 0 {
		t.Errorf("MXFP4 on one H100: %d KV blocks, want room for a cache", got)
	}
	if bf := (Hardware{Model: m, GPU: h100}); bf.KVBlocks(0) != 0 {
		t.Errorf("BF16 on one H100: %d KV blocks, want none (234 GB of weights)", bf.KVBlocks(0))
	}
	if kv, win := hw.KVBytesPerToken(), hw.WindowKVBytesPerToken(); kv != 36864 || win != 36864 {
		t.Errorf("KV %v B a token in full layers, %v in sliding ones; want 36864 each", kv, win)
	}
	if got := hw.WindowBlocks(); got != 9 {
		t.Errorf("window blocks %d, want 9", got)
	}
	l8, _ := LookupModel("Llama-3.1-8B")
	if got := (Hardware{Model: l8, GPU: h100}).WindowBlocks(); got != 0 {
		t.Errorf("Llama-3.1-8B window blocks %d, want 0", got)
	}
	dense := Hardware{Model: l8, GPU: h100, Weights: MXFP4}
	if err := dense.CheckPrecision(); err == nil {
		t.Error("MXFP4 on a dense model: no error")
	}
}

// TestWindowPairs holds the closed form to the sum it replaces.
func TestWindowPairs(t *testing.T) {
	t.Parallel()
	for _, w := range []int{1, 16, 128} {
		for ctx := 0; ctx < 300; ctx += 7 {
			for tok := 1; tok < 300; tok += 13 {
				want := 0
				for i := 1; i <= tok; i++ {
					want += min(ctx+i, w)
				}
				if got := windowPairs(float64(tok), float64(ctx), float64(w)); got != float64(want) {
					t.Fatalf("windowPairs(%d, %d, %d) = %v, want %d", tok, ctx, w, got, want)
				}
			}
		}
	}
}

// TestSlidingWindowCost: within the window the sliding layers cost what
// full ones would; past it their attention stops growing, so a long
// context's decode and prefill cost less than with every layer full, and
// the cost still rises with the context (the full layers).
func TestSlidingWindowCost(t *testing.T) {
	t.Parallel()
	m, _ := LookupModel("gpt-oss-120b")
	h100, _ := LookupGPU("H100")
	allFull := m
	allFull.SlidingLayers = 0
	slide := NewCostModel(Hardware{Model: m, GPU: h100, Weights: MXFP4}, CostParams{})
	full := NewCostModel(Hardware{Model: allFull, GPU: h100, Weights: MXFP4}, CostParams{})
	step := func(c *CostModel, ctx int) (dec, pre time.Duration) {
		decode := make([]int, 64)
		for i := range decode {
			decode[i] = ctx
		}
		return c.StepTime(Batch{Decode: decode}), c.StepTime(Batch{Prefill: []Chunk{{Tokens: 2048, Context: ctx}}})
	}
	for _, ctx := range []int{0, 100} {
		sd, sp := step(slide, ctx)
		fd, fp := step(full, ctx)
		if ctx+1 <= 127 && sd != fd {
			t.Errorf("context %d decode: %v with the window, %v without; want equal inside it", ctx, sd, fd)
		}
		if sp > fp {
			t.Errorf("context %d prefill: %v with the window, over %v without", ctx, sp, fp)
		}
	}
	var last time.Duration
	for _, ctx := range []int{1000, 10000, 100000} {
		sd, sp := step(slide, ctx)
		fd, fp := step(full, ctx)
		if sd >= fd || sp >= fp {
			t.Errorf("context %d: decode %v, prefill %v with the window; want under %v, %v", ctx, sd, sp, fd, fp)
		}
		if sd <= last {
			t.Errorf("context %d: decode %v, not above %v at a shorter context", ctx, sd, last)
		}
		last = sd
	}
}

// TestWindowBlocks: a sequence holds its full-attention blocks plus as
// many window blocks as its tokens fill, up to WindowBlocks, so that a
// cache of 20 blocks runs one 100-token sequence (7 + 3 blocks) and a
// second beside it, while a request that cannot fit both kinds at once is
// refused.
func TestWindowBlocks(t *testing.T) {
	t.Parallel()
	e, _ := newTestEngine(t, EngineConfig{NumBlocks: 20, BlockSize: 16, WindowBlocks: 3, MaxNumBatchedTokens: 512})
	mustAdd(t, e, &Request{ID: 1, PromptLen: 100, OutputLen: 5})
	mustAdd(t, e, &Request{ID: 2, PromptLen: 20, OutputLen: 5})
	e.Step(0)
	if got := e.kv.used(); got != 7+3+2+2 {
		t.Errorf("%d blocks in use after the prefills, want 14 (7+3 and 2+2)", got)
	}
	if err := e.check(); err != nil {
		t.Fatal(err)
	}
	runUntilIdle(t, e, time.Second)
	if e.kv.used() != 0 {
		t.Errorf("idle engine holds %d blocks", e.kv.used())
	}
	if err := e.Add(&Request{ID: 3, PromptLen: 18 * 16, OutputLen: 1}); err == nil {
		t.Error("a request of 18 blocks and 3 window blocks fits a 20-block cache")
	}
}
