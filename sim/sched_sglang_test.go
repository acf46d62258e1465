package sim

import (
	"testing"
	"time"
)

// TestSGLangBatches: under SGLang a step is a prefill batch or a decode
// batch, never both: while requests arrive that the cache can admit,
// the decodes wait, as SGLang runs a prefill batch whenever it can form
// one; vLLM mixes them in one step.
func TestSGLangBatches(t *testing.T) {
	t.Parallel()
	for _, p := range []Policy{SGLang, VLLM} {
		e, fc := newTestEngine(t, EngineConfig{NumBlocks: 1000, BlockSize: 16, MaxNumBatchedTokens: 512, Policy: p})
		mustAdd(t, e, &Request{ID: 1, PromptLen: 100, OutputLen: 50})
		now := time.Duration(0)
		for range 5 { // request 1 is decoding
			now += e.Step(now).Duration
		}
		mustAdd(t, e, &Request{ID: 2, PromptLen: 300, OutputLen: 50, Arrival: now})
		fc.batches = fc.batches[:0]
		e.Step(now)
		b := fc.batches[0]
		mixed := len(b.Prefill) > 0 && len(b.Decode) > 0
		if p == SGLang && (mixed || len(b.Prefill) != 1) {
			t.Errorf("sglang: the step after an arrival has %d prefill chunks and %d decodes; want the prefill alone", len(b.Prefill), len(b.Decode))
		}
		if p == VLLM && !mixed {
			t.Errorf("vllm: the step after an arrival has %d prefill chunks and %d decodes; want both", len(b.Prefill), len(b.Decode))
		}
		runUntilIdle(t, e, now)
	}
}

// TestSGLangAdmission: SGLang admits a request only when the free blocks
// hold its prompt and its whole output, less the new-token ratio's share
// (0.7 at first) of what the running ones may still write; vLLM admits
// one whose first chunk fits.
func TestSGLangAdmission(t *testing.T) {
	t.Parallel()
	// 100 blocks of 16 tokens. Request 1: 480 prompt + 1000 output tokens;
	// admitted alone it reserves all 93 blocks of both. Request 2 (160 +
	// 160) then needs 20 blocks against 7 left: it waits under SGLang.
	for _, tt := range []struct {
		p       Policy
		running int
	}{{SGLang, 1}, {VLLM, 2}} {
		e, _ := newTestEngine(t, EngineConfig{NumBlocks: 100, BlockSize: 16, MaxNumBatchedTokens: 2048, Policy: tt.p})
		mustAdd(t, e, &Request{ID: 1, PromptLen: 480, OutputLen: 1000})
		mustAdd(t, e, &Request{ID: 2, PromptLen: 160, OutputLen: 160})
		if r := e.Step(0); r.Running != tt.running {
			t.Errorf("%v: %d running after the first step, want %d", tt.p, r.Running, tt.running)
		}
		runUntilIdle(t, e, 0)
	}
}

// TestSGLangRetractsFewestOutputs: when a decode batch runs out of
// blocks, SGLang retracts the running request with the fewest output
// tokens, the longest prompt among equals; vLLM preempts the most recently
// admitted.
func TestSGLangRetractsFewestOutputs(t *testing.T) {
	t.Parallel()
	e, _ := newTestEngine(t, EngineConfig{NumBlocks: 100, BlockSize: 16, Policy: SGLang})
	e.running = []*seq{
		{req: Request{ID: 1, PromptLen: 100}, generated: 5},
		{req: Request{ID: 2, PromptLen: 300}, generated: 2},
		{req: Request{ID: 3, PromptLen: 200}, generated: 2},
		{req: Request{ID: 4, PromptLen: 50}, generated: 9},
	}
	if v := e.victim(0); v.req.ID != 2 {
		t.Errorf("sglang retracts request %d, want 2 (2 outputs, the longer prompt)", v.req.ID)
	}
	if v := e.victim(3); v.req.ID != 4 {
		t.Errorf("from index 3 on sglang retracts request %d, want 4, the only one left", v.req.ID)
	}
	e.cfg.Policy = VLLM
	if v := e.victim(0); v.req.ID != 4 {
		t.Errorf("vllm preempts request %d, want 4, the most recently admitted", v.req.ID)
	}
	e.running = nil
}
