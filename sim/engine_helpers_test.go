package sim

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// fakeCost charges a fixed time per step plus time per prefill token and
// per decode, and records every batch it sees.
//
//	StepTime = 1ms + 10µs·Σ chunk tokens + 100µs·len(Decode)
type fakeCost struct {
	batches []Batch
	record  bool
}

func (f *fakeCost) StepTime(b Batch) time.Duration {
	if f.record {
		f.batches = append(f.batches, Batch{Prefill: slices.Clone(b.Prefill), Decode: slices.Clone(b.Decode)})
	}
	d := time.Millisecond + 100*time.Microsecond*time.Duration(len(b.Decode))
	for _, c := range b.Prefill {
		d += 10 * time.Microsecond * time.Duration(c.Tokens)
	}
	return d
}

func newTestEngine(t testing.TB, cfg EngineConfig) (*Engine, *fakeCost) {
	t.Helper()
	fc := &fakeCost{record: true}
	e, err := NewEngine(cfg, fc)
	if err != nil {
		t.Fatalf("NewEngine: %v", err)
	}
	return e, fc
}

func mustAdd(t testing.TB, e *Engine, r *Request) {
	t.Helper()
	if err := e.Add(r); err != nil {
		t.Fatalf("Add(%d): %v", r.ID, err)
	}
}

// runUntilIdle steps e from now until it is idle, checking invariants after
// every step, and returns all events and the end time.
func runUntilIdle(t testing.TB, e *Engine, now time.Duration) ([]Event, time.Duration) {
	t.Helper()
	var evs []Event
	for i := 0; !e.Idle(); i++ {
		if i > 1_000_000 {
			t.Fatal("engine did not go idle")
		}
		res := e.Step(now)
		if res.Duration <= 0 {
			t.Fatalf("step %d at %v: duration %v while not idle", i, now, res.Duration)
		}
		now += res.Duration
		evs = append(evs, res.Events...)
		if err := e.check(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	return evs, now
}

// check verifies the engine's invariants: the KV cache's own, blocks held
// by sequences match refcounts (so total blocks are conserved), each
// running sequence holds ⌈computed/BlockSize⌉ blocks, waiting sequences
// hold none, and MaxNumSeqs holds.
func (e *Engine) check() error {
	if err := e.kv.check(); err != nil {
		return err
	}
	refs := make([]int32, len(e.kv.ref))
	for _, s := range e.running {
		if s.heapIdx != noHeap || s.done {
			return fmt.Errorf("running request %d is waiting or done", s.req.ID)
		}
		if want := e.kv.blocksFor(s.computed); len(s.blocks) != want {
			return fmt.Errorf("request %d: %d blocks for %d computed tokens, want %d", s.req.ID, len(s.blocks), s.computed, want)
		}
		if want := min(e.kv.blocksFor(s.computed), e.cfg.WindowBlocks); len(s.window) < want || len(s.window) > e.cfg.WindowBlocks {
			return fmt.Errorf("request %d: %d window blocks for %d computed tokens, want %d to %d", s.req.ID, len(s.window), s.computed, want, e.cfg.WindowBlocks)
		}
		for _, b := range s.blocks {
			refs[b]++
		}
		for _, b := range s.window {
			refs[b]++
		}
	}
	for i, s := range e.waiting.h {
		if s.heapIdx != i || len(s.blocks) != 0 || len(s.window) != 0 || s.computed != 0 {
			return fmt.Errorf("waiting request %d: index %d/%d, %d blocks, %d computed", s.req.ID, s.heapIdx, i, len(s.blocks), s.computed)
		}
	}
	for b, r := range refs {
		if r != e.kv.ref[b] {
			return fmt.Errorf("block %d: %d sequences hold it, refcount %d", b, r, e.kv.ref[b])
		}
	}
	if n := len(e.running) + e.waiting.Len(); n != len(e.seqs) {
		return fmt.Errorf("%d running+waiting, %d known", n, len(e.seqs))
	}
	if len(e.running) > e.cfg.MaxNumSeqs {
		return fmt.Errorf("%d running > max %d", len(e.running), e.cfg.MaxNumSeqs)
	}
	return nil
}

// hashes returns n block hashes sharing the first shared with prefix base.
func hashes(base uint64, n, shared int, own uint64) []uint64 {
	h := make([]uint64, n)
	for i := range h {
		if i < shared {
			h[i] = base<<32 | uint64(i)
		} else {
			h[i] = own<<48 | uint64(i)
		}
	}
	return h
}
