package sim

import (
	"slices"
	"testing"
	"time"
)

func TestBatchingRespectsLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		cfg    EngineConfig
		n      int // requests, all arriving at 0
		prompt int
		output int
	}{
		{reason: "seq cap binds", cfg: EngineConfig{MaxNumBatchedTokens: 512, MaxNumSeqs: 4, BlockSize: 16, NumBlocks: 100}, n: 10, prompt: 30, output: 5},
		{reason: "token budget binds, prefills chunked beside decodes", cfg: EngineConfig{MaxNumBatchedTokens: 40, MaxNumSeqs: 64, BlockSize: 8, NumBlocks: 400}, n: 12, prompt: 70, output: 9},
		{reason: "budget of one token", cfg: EngineConfig{MaxNumBatchedTokens: 1, MaxNumSeqs: 3, BlockSize: 4, NumBlocks: 40}, n: 4, prompt: 5, output: 3},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			e, fc := newTestEngine(t, tt.cfg)
			for i := range tt.n {
				mustAdd(t, e, &Request{ID: uint64(i), PromptLen: tt.prompt, OutputLen: tt.output})
			}
			evs, _ := runUntilIdle(t, e, 0)
			shared := 0
			for i, b := range fc.batches {
				tokens := len(b.Decode)
				for _, c := range b.Prefill {
					tokens += c.Tokens
				}
				if tokens > tt.cfg.MaxNumBatchedTokens {
					t.Errorf("step %d: %d tokens > budget %d", i, tokens, tt.cfg.MaxNumBatchedTokens)
				}
				if seqs := len(b.Decode) + len(b.Prefill); seqs > tt.cfg.MaxNumSeqs {
					t.Errorf("step %d: %d sequences > %d", i, seqs, tt.cfg.MaxNumSeqs)
				} else if seqs > 1 {
					shared++
				}
			}
			if shared == 0 && tt.cfg.MaxNumBatchedTokens > 1 {
				t.Error("no step batched several requests")
			}
			tokens := map[uint64]int{}
			for _, ev := range evs {
				if ev.Kind == EventToken || ev.Kind == EventFirstToken {
					tokens[ev.ID]++
				}
			}
			for i := range tt.n {
				if tokens[uint64(i)] != tt.output {
					t.Errorf("request %d got %d tokens, want %d", i, tokens[uint64(i)], tt.output)
				}
			}
			if st := e.Stats(); st.GenerationTokens != int64(tt.n*tt.output) || st.PromptTokens != int64(tt.n*tt.prompt) {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

func TestPriorityOrder(t *testing.T) {
	t.Parallel()
	// One sequence at a time: lower Priority first, then earlier Arrival.
	e, _ := newTestEngine(t, EngineConfig{MaxNumSeqs: 1, BlockSize: 16, NumBlocks: 10})
	for _, r := range []Request{
		{ID: 1, Priority: 2, Arrival: 0},
		{ID: 2, Priority: 0, Arrival: 3},
		{ID: 3, Priority: 1, Arrival: 2},
		{ID: 4, Priority: 1, Arrival: 1},
	} {
		r.PromptLen, r.OutputLen = 10, 2
		mustAdd(t, e, &r)
	}
	evs, _ := runUntilIdle(t, e, 10)
	var order []uint64
	for _, ev := range evs {
		if ev.Kind == EventFinished {
			order = append(order, ev.ID)
		}
	}
	if want := []uint64{2, 4, 3, 1}; !slices.Equal(order, want) {
		t.Errorf("finish order %v, want %v", order, want)
	}
}

func TestPrefixCaching(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason     string
		caching    bool
		bPrompt    int
		shared     int  // leading blocks B shares with A
		concurrent bool // B added while A is decoding, not after A finished
		wantCached int
		wantChunk  Chunk // B's first prefill chunk
		wantHits   int64
	}{
		{reason: "shared 3 blocks: B prefills the rest", caching: true, bPrompt: 80, shared: 3,
			wantCached: 48, wantChunk: Chunk{Tokens: 32, Context: 48}, wantHits: 48},
		{reason: "shared while A still holds the blocks", caching: true, bPrompt: 80, shared: 3, concurrent: true,
			wantCached: 48, wantChunk: Chunk{Tokens: 32, Context: 48}, wantHits: 48},
		{reason: "identical prompt: the last block is recomputed to sample a token", caching: true, bPrompt: 64, shared: 4,
			wantCached: 48, wantChunk: Chunk{Tokens: 16, Context: 48}, wantHits: 48},
		{reason: "no shared blocks", caching: true, bPrompt: 80, shared: 0,
			wantChunk: Chunk{Tokens: 80}},
		{reason: "caching off: no reuse, no queries", caching: false, bPrompt: 80, shared: 3,
			wantChunk: Chunk{Tokens: 80}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			e, fc := newTestEngine(t, EngineConfig{BlockSize: 16, NumBlocks: 64, EnablePrefixCaching: tt.caching})
			mustAdd(t, e, &Request{ID: 1, PromptLen: 64, BlockHashes: hashes(1, 4, 4, 1), OutputLen: 4})
			b := &Request{ID: 2, PromptLen: tt.bPrompt, BlockHashes: hashes(1, tt.bPrompt/16, tt.shared, 2), OutputLen: 2}
			var evs []Event
			var now time.Duration
			if tt.concurrent {
				res := e.Step(now)
				now += res.Duration
				evs = append(evs, res.Events...)
				mustAdd(t, e, b)
				more, _ := runUntilIdle(t, e, now)
				evs = append(evs, more...)
			} else {
				evs, now = runUntilIdle(t, e, now)
				mustAdd(t, e, b)
				more, _ := runUntilIdle(t, e, now)
				evs = append(evs, more...)
			}
			var first Chunk
			for _, bt := range fc.batches[1:] {
				if len(bt.Prefill) > 0 {
					first = bt.Prefill[0]
					break
				}
			}
			if first != tt.wantChunk {
				t.Errorf("B's first chunk %+v, want %+v", first, tt.wantChunk)
			}
			for _, ev := range evs {
				if ev.ID == 2 && (ev.Kind == EventScheduled || ev.Kind == EventFirstToken) && ev.CachedTokens != tt.wantCached {
					t.Errorf("%s event: %d cached tokens, want %d", ev.Kind, ev.CachedTokens, tt.wantCached)
				}
			}
			st := e.Stats()
			wantQueries := int64(0)
			if tt.caching {
				wantQueries = int64(64 + tt.bPrompt)
			}
			if st.PrefixCacheHits != tt.wantHits || st.PrefixCacheQueries != wantQueries {
				t.Errorf("hits/queries %d/%d, want %d/%d", st.PrefixCacheHits, st.PrefixCacheQueries, tt.wantHits, wantQueries)
			}
		})
	}
}

func TestPrefixCacheLRUEviction(t *testing.T) {
	t.Parallel()
	// 8 blocks. A then B (4 full prompt blocks each) finish and stay cached,
	// filling the pool; C needs 3 blocks and must evict A's, the least
	// recently used, tail first, so A keeps only its first block.
	e, _ := newTestEngine(t, EngineConfig{BlockSize: 16, NumBlocks: 8, EnablePrefixCaching: true})
	var now time.Duration
	ha, hb, hc := hashes(1, 4, 4, 1), hashes(2, 4, 4, 2), hashes(3, 3, 3, 3)
	for i, h := range [][]uint64{ha, hb, hc} {
		mustAdd(t, e, &Request{ID: uint64(i), PromptLen: 16 * len(h), BlockHashes: h, OutputLen: 1})
		_, now = runUntilIdle(t, e, now)
	}
	for _, tt := range []struct {
		reason string
		h      []uint64
		want   int
	}{
		{reason: "A evicted but for its head", h: ha, want: 1},
		{reason: "B, more recent, intact", h: hb, want: 4},
		{reason: "C just cached", h: hc, want: 3},
	} {
		if got, _ := e.kv.lookup(tt.h, 4); got != tt.want {
			t.Errorf("%s: %d cached blocks, want %d", tt.reason, got, tt.want)
		}
	}
}

func TestPreemption(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason  string
		caching bool
	}{
		{reason: "recompute from scratch", caching: false},
		{reason: "recompute partly from the prefix cache", caching: true},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			// 6 blocks of 4 tokens; A and B each grow to ⌈(8+10−1)/4⌉ = 5
			// blocks. At 12 computed tokens each holds 3 blocks and A, first
			// in the running list, needs a 4th: B, the later arrival, is
			// preempted (not A itself) and resumes after A frees its blocks.
			e, fc := newTestEngine(t, EngineConfig{BlockSize: 4, NumBlocks: 6, EnablePrefixCaching: tt.caching})
			mustAdd(t, e, &Request{ID: 1, Arrival: 0, PromptLen: 8, BlockHashes: hashes(1, 2, 2, 1), OutputLen: 10})
			mustAdd(t, e, &Request{ID: 2, Arrival: 1, PromptLen: 8, BlockHashes: hashes(2, 2, 2, 2), OutputLen: 10})
			evs, _ := runUntilIdle(t, e, 0)
			var pre []uint64
			tokens := map[uint64][]int{}
			for _, ev := range evs {
				switch ev.Kind {
				case EventPreempted:
					pre = append(pre, ev.ID)
				case EventFirstToken, EventToken:
					tokens[ev.ID] = append(tokens[ev.ID], ev.Tokens)
				}
			}
			if len(pre) == 0 || slices.Contains(pre, 1) {
				t.Errorf("preempted %v, want only request 2", pre)
			}
			want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
			for id := uint64(1); id <= 2; id++ {
				if !slices.Equal(tokens[id], want) {
					t.Errorf("request %d tokens %v, want %v", id, tokens[id], want)
				}
			}
			st := e.Stats()
			if st.Preemptions != int64(len(pre)) || st.Finished != 2 {
				t.Errorf("stats %+v", st)
			}
			// The resumed prefill recomputes prompt and generated tokens; with
			// caching its blocks still cached are hit, but not counted: as
			// vLLM's counters, the prefix-cache stats count first admissions.
			var resumed Chunk
			for _, b := range fc.batches[1:] {
				if len(b.Prefill) > 0 {
					resumed = b.Prefill[0]
				}
			}
			if resumed.Tokens+resumed.Context <= 8 {
				t.Errorf("resumed chunk %+v does not cover generated tokens", resumed)
			}
			if tt.caching != (resumed.Context > 0) || st.PrefixCacheHits != 0 {
				t.Errorf("caching %t: resumed chunk %+v, %d hits", tt.caching, resumed, st.PrefixCacheHits)
			}
		})
	}
}

// TestNoEvictReserves: under NoEvict the second request waits until the
// blocks the first will still allocate are left for it, so nothing is
// preempted where VLLM preempts; both policies finish both requests.
func TestNoEvictReserves(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		p           Policy
		preemptions bool
	}{{VLLM, true}, {NoEvict, false}} {
		// 8 blocks of 4 tokens; each request grows to ⌈(8+16−1)/4⌉ = 6.
		e, _ := newTestEngine(t, EngineConfig{BlockSize: 4, NumBlocks: 8, Policy: tt.p})
		mustAdd(t, e, &Request{ID: 1, PromptLen: 8, OutputLen: 16})
		mustAdd(t, e, &Request{ID: 2, Arrival: 1, PromptLen: 8, OutputLen: 16})
		evs, _ := runUntilIdle(t, e, 0)
		st := e.Stats()
		if (st.Preemptions > 0) != tt.preemptions || st.Finished != 2 {
			t.Errorf("%v: %d preemptions, %d finished; want preemptions %t and both finished", tt.p, st.Preemptions, st.Finished, tt.preemptions)
		}
		if tt.p == NoEvict {
			var firstDone, secondIn time.Duration
			for _, ev := range evs {
				switch {
				case ev.ID == 1 && ev.Kind == EventFinished:
					firstDone = ev.Time
				case ev.ID == 2 && ev.Kind == EventScheduled:
					secondIn = ev.Time
				}
			}
			if secondIn < firstDone {
				t.Errorf("no-evict admitted request 2 at %v, before request 1 freed its blocks at %v", secondIn, firstDone)
			}
		}
	}
}
