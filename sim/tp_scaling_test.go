package sim

import (
	"testing"
	"time"
)

// TestTPScaling: more GPUs per replica never slow a model down. Over TP
// 1, 2, 4 and 8 on H100s, at vLLM's defaults, the mean inter-token
// latency of a lone request falls and the output throughput of an
// offline batch rises, for Llama-3.1-8B (BF16) and Llama-3.1-70B (FP8
// weights and KV cache, so that one GPU holds it), as every published
// TP series does. The engine runs in virtual time.
func TestTPScaling(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		model string
		w, kv Precision
	}{
		{"Llama-3.1-8B", BF16, BF16},
		{"Llama-3.1-70B", FP8, FP8},
	} {
		var prevITL time.Duration
		var prevTPS float64
		for _, tp := range []int{1, 2, 4, 8} {
			hw := hwFor(t, tt.model, "H100", tp, tt.w, tt.kv)
			itl := loneITL(t, hw)
			tps := offlineTPS(t, hw)
			t.Logf("%s TP%d: ITL %v, offline %.0f tok/s", tt.model, tp, itl, tps)
			if tp > 1 && (itl >= prevITL || tps <= prevTPS) {
				t.Errorf("%s: TP%d ITL %v, %.0f tok/s; TP%d %v, %.0f tok/s: want a shorter ITL and more throughput",
					tt.model, tp, itl, tps, tp/2, prevITL, prevTPS)
			}
			prevITL, prevTPS = itl, tps
		}
	}
}

// runEngine adds reqs to an engine of hw configured by cfg, with vLLM's
// defaults for its zero fields (prefix caching on, the KV cache that hw
// holds), runs it until idle and returns it and the virtual time it took.
func runEngine(t *testing.T, hw Hardware, cfg EngineConfig, reqs []Request) (*Engine, time.Duration) {
	t.Helper()
	cfg.NumBlocks, cfg.EnablePrefixCaching = hw.KVBlocks(0), true
	e, err := NewEngine(cfg, NewCostModel(hw, CostParams{}))
	if err != nil {
		t.Fatal(err)
	}
	for i := range reqs {
		mustAdd(t, e, &reqs[i])
	}
	var now time.Duration
	for !e.Idle() {
		now += e.Step(now).Duration
	}
	return e, now
}

// loneITL is the mean time between output tokens of one request of 1000
// prompt and 257 output tokens, alone on hw.
func loneITL(t *testing.T, hw Hardware) time.Duration {
	t.Helper()
	e, err := NewEngine(EngineConfig{NumBlocks: hw.KVBlocks(0), EnablePrefixCaching: true}, NewCostModel(hw, CostParams{}))
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, e, &Request{ID: 1, PromptLen: 1000, OutputLen: 257})
	var now, first time.Duration
	for !e.Idle() {
		res := e.Step(now)
		now += res.Duration
		for _, ev := range res.Events {
			if ev.Kind == EventFirstToken {
				first = ev.Time
			}
		}
	}
	return (now - first) / 256
}

// offlineTPS is the output tokens per second of 2000 requests of 1000
// prompt and 1000 output tokens queued at once on hw.
func offlineTPS(t *testing.T, hw Hardware) float64 {
	t.Helper()
	reqs := make([]Request, 2000)
	for i := range reqs {
		reqs[i] = Request{ID: uint64(i), PromptLen: 1000, OutputLen: 1000}
	}
	e, took := runEngine(t, hw, EngineConfig{}, reqs)
	return float64(e.Stats().GenerationTokens) / took.Seconds()
}
