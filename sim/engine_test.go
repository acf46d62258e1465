package sim

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestSingleRequestChunkedPrefill(t *testing.T) {
	t.Parallel()
	// Prompt 40 under a budget of 16: chunks 16, 16, 8; the third step
	// completes prefill and samples the first token, then one token a step.
	e, fc := newTestEngine(t, EngineConfig{MaxNumBatchedTokens: 16, BlockSize: 16, NumBlocks: 10})
	mustAdd(t, e, &Request{ID: 7, Arrival: 0, PromptLen: 40, OutputLen: 3})
	evs, end := runUntilIdle(t, e, 5*time.Millisecond)

	wantBatches := []Batch{
		{Prefill: []Chunk{{16, 0}}},
		{Prefill: []Chunk{{16, 16}}},
		{Prefill: []Chunk{{8, 32}}},
		{Decode: []int{40}},
		{Decode: []int{41}},
	}
	if len(fc.batches) != len(wantBatches) {
		t.Fatalf("batches %+v, want %+v", fc.batches, wantBatches)
	}
	for i, b := range fc.batches {
		if !slices.Equal(b.Prefill, wantBatches[i].Prefill) || !slices.Equal(b.Decode, wantBatches[i].Decode) {
			t.Errorf("step %d batch %+v, want %+v", i, b, wantBatches[i])
		}
	}
	// Step times: 1.16ms, 1.16ms, 1.08ms, 1.1ms, 1.1ms from t=5ms.
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	want := []Event{
		{ID: 7, Kind: EventScheduled, Time: ms(6.16), Queued: 5 * time.Millisecond},
		{ID: 7, Kind: EventFirstToken, Time: ms(8.40), Tokens: 1},
		{ID: 7, Kind: EventToken, Time: ms(9.50), Tokens: 2},
		{ID: 7, Kind: EventToken, Time: ms(10.60), Tokens: 3},
		{ID: 7, Kind: EventFinished, Time: ms(10.60), Tokens: 3},
	}
	if !slices.Equal(evs, want) {
		t.Errorf("events\n%+v\nwant\n%+v", evs, want)
	}
	if end != ms(10.60) {
		t.Errorf("end %v, want 10.6ms", end)
	}
	st := e.Stats()
	if e.kv.used() != 0 || st.KVUsage != 0 {
		t.Errorf("blocks still used: %d (usage %v)", e.kv.used(), st.KVUsage)
	}
	if st.PromptTokens != 40 || st.GenerationTokens != 3 || st.Finished != 1 {
		t.Errorf("stats %+v, want 40 prompt, 3 generated, 1 finished", st)
	}
}

func TestAddRejects(t *testing.T) {
	t.Parallel()
	cfg := EngineConfig{BlockSize: 16, NumBlocks: 4, MaxModelLen: 100}
	tests := []struct {
		reason  string
		r       Request
		wantCtx bool
		wantCap bool
	}{
		{reason: "prompt+output over MaxModelLen", r: Request{ID: 1, PromptLen: 90, OutputLen: 11}, wantCtx: true},
		{reason: "prompt alone over MaxModelLen", r: Request{ID: 1, PromptLen: 101, OutputLen: 1}, wantCtx: true},
		{reason: "fits the context but not the 64-token cache: 65 KV tokens need 5 blocks", r: Request{ID: 1, PromptLen: 60, OutputLen: 6}, wantCap: true},
		{reason: "empty prompt", r: Request{ID: 1, PromptLen: 0, OutputLen: 1}},
		{reason: "no output", r: Request{ID: 1, PromptLen: 5, OutputLen: 0}},
		{reason: "duplicate id", r: Request{ID: 99, PromptLen: 5, OutputLen: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			e, _ := newTestEngine(t, cfg)
			mustAdd(t, e, &Request{ID: 99, PromptLen: 1, OutputLen: 1})
			err := e.Add(&tt.r)
			if err == nil {
				t.Fatal("Add accepted the request")
			}
			var ce *ContextLengthError
			if got := errors.As(err, &ce); got != tt.wantCtx {
				t.Errorf("context length error %t, want %t: %v", got, tt.wantCtx, err)
			}
			if got := errors.Is(err, ErrKVCapacity); got != tt.wantCap {
				t.Errorf("capacity error %t, want %t: %v", got, tt.wantCap, err)
			}
			if e.Stats().Waiting != 1 {
				t.Errorf("rejected request was queued")
			}
		})
	}
	// The boundary is accepted: 64 KV tokens (prompt 60 + 5 outputs − 1) fill 4 blocks.
	e, _ := newTestEngine(t, cfg)
	mustAdd(t, e, &Request{ID: 1, PromptLen: 60, OutputLen: 5})
	runUntilIdle(t, e, 0)
}

func TestContextLengthMessage(t *testing.T) {
	t.Parallel()
	err := CheckContext(4096, 2778, 8000)
	const want = "This model's maximum context length is 4096 tokens. However, you requested 10778 tokens " +
		"(2778 in the messages, 8000 in the completion). Please reduce the length of the messages or completion."
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err := CheckContext(4096, 96, 4000); err != nil {
		t.Errorf("exactly at the limit: %v", err)
	}
}

func TestNewEngineConfig(t *testing.T) {
	t.Parallel()
	e, err := NewEngine(EngineConfig{}, &fakeCost{})
	if err != nil {
		t.Fatal(err)
	}
	want := EngineConfig{MaxNumBatchedTokens: 8192, MaxNumSeqs: 256, BlockSize: 16, NumBlocks: 8192, MaxModelLen: 8192 * 16}
	if got := e.Config(); got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	if _, err := NewEngine(EngineConfig{MaxNumSeqs: -1, BlockSize: -2}, &fakeCost{}); err == nil {
		t.Error("negative fields accepted")
	}
	if _, err := NewEngine(EngineConfig{}, nil); err == nil {
		t.Error("nil coster accepted")
	}
}

func TestAbortFreesBlocks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		steps  int // steps before the abort
	}{
		{reason: "waiting request", steps: 0},
		{reason: "mid prefill", steps: 1},
		{reason: "decoding", steps: 4},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			e, _ := newTestEngine(t, EngineConfig{MaxNumBatchedTokens: 32, BlockSize: 16, NumBlocks: 20, EnablePrefixCaching: true})
			mustAdd(t, e, &Request{ID: 1, PromptLen: 64, BlockHashes: hashes(1, 4, 4, 1), OutputLen: 100})
			mustAdd(t, e, &Request{ID: 2, PromptLen: 20, OutputLen: 100})
			var now time.Duration
			for range tt.steps {
				now += e.Step(now).Duration
			}
			e.Abort(1)
			e.Abort(1) // twice is harmless
			if err := e.check(); err != nil {
				t.Fatal(err)
			}
			e.Abort(2)
			if !e.Idle() || e.kv.used() != 0 || e.kv.numFree != 20 {
				t.Errorf("after aborting all: idle %t, %d used, %d free", e.Idle(), e.kv.used(), e.kv.numFree)
			}
			if err := e.check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestEventKindString(t *testing.T) {
	t.Parallel()
	for k, want := range map[EventKind]string{EventScheduled: "scheduled", EventFirstToken: "first_token",
		EventToken: "token", EventFinished: "finished", EventPreempted: "preempted", 0: "EventKind(0)"} {
		if k.String() != want {
			t.Errorf("%d: %q, want %q", k, k.String(), want)
		}
	}
}
