package sim

import (
	"testing"
	"time"
)

// decodeEngine returns an engine with n sequences of prompt tokens each,
// all past prefill and decoding, each to generate out tokens.
func decodeEngine(tb testing.TB, n, prompt, out int) (*Engine, time.Duration) {
	tb.Helper()
	e, err := NewEngine(EngineConfig{MaxNumSeqs: n, NumBlocks: n * (prompt + out) / 16 * 2, EnablePrefixCaching: true}, &fakeCost{})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		mustAdd(tb, e, &Request{ID: uint64(i), PromptLen: prompt, BlockHashes: hashes(uint64(i), prompt/16, 0, uint64(i)), OutputLen: out})
	}
	var now time.Duration
	for e.Stats().Waiting > 0 || e.stats.GenerationTokens < int64(n) {
		now += e.Step(now).Duration
	}
	return e, now
}

func TestDecodeStepDoesNotAllocate(t *testing.T) { // not parallel: AllocsPerRun forbids it
	// In steady decode every sequence's block slice was sized at Add and
	// the step's scratch slices are reused: a step allocates nothing.
	e, now := decodeEngine(t, 64, 100, 1000)
	allocs := testing.AllocsPerRun(200, func() { now += e.Step(now).Duration })
	if allocs != 0 {
		t.Errorf("decode step allocates %v times", allocs)
	}
	if e.Stats().Running != 64 {
		t.Fatalf("%d running, want all 64 decoding", e.Stats().Running)
	}
}

// BenchmarkStepDecode256 steps 256 concurrent decodes; each finished
// request is replaced by a new one (512-token prompt, 1024 output tokens),
// so about one step in four also carries a prefill, as in a loaded server.
// x_realtime is simulated time over wall time under fakeCost (26.6 ms per
// 256-decode step), the speed-up `surge sim` gets from a step this cheap.
func BenchmarkStepDecode256(b *testing.B) {
	const prompt, out = 512, 1024
	e, now := decodeEngine(b, 256, prompt, out)
	next := uint64(256)
	start, tokens0 := now, e.stats.GenerationTokens
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res := e.Step(now)
		now += res.Duration
		for _, ev := range res.Events {
			if ev.Kind == EventFinished {
				r := &Request{ID: next, Arrival: now, PromptLen: prompt, OutputLen: out}
				if err := e.Add(r); err != nil {
					b.Fatal(err)
				}
				next++
			}
		}
	}
	wall := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/wall, "steps/s")
	b.ReportMetric(float64(e.stats.GenerationTokens-tokens0)/wall, "sim_tokens/s")
	b.ReportMetric((now-start).Seconds()/wall, "x_realtime")
}
