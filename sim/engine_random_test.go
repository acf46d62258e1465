package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// budgetCost is fakeCost that also fails the test when a batch breaks the
// token budget or the sequence cap.
type budgetCost struct {
	fakeCost
	t   *testing.T
	cfg EngineConfig
}

func (b *budgetCost) StepTime(bt Batch) time.Duration {
	tokens := len(bt.Decode)
	for _, c := range bt.Prefill {
		tokens += c.Tokens
		if c.Tokens < 1 || c.Context < 0 {
			b.t.Errorf("bad chunk %+v", c)
		}
	}
	if tokens > b.cfg.MaxNumBatchedTokens || len(bt.Decode)+len(bt.Prefill) > b.cfg.MaxNumSeqs {
		b.t.Errorf("batch of %d tokens, %d seqs breaks %+v", tokens, len(bt.Decode)+len(bt.Prefill), b.cfg)
	}
	return b.fakeCost.StepTime(bt)
}

// reqLog follows one request's events and checks their order.
type reqLog struct {
	out                 int
	scheduled, finished bool
	tokens              int
	aborted             bool
}

func (l *reqLog) see(ev Event) error {
	switch ev.Kind {
	case EventScheduled:
		if l.scheduled {
			return fmt.Errorf("scheduled twice")
		}
		l.scheduled = true
	case EventFirstToken, EventToken:
		if !l.scheduled || l.finished || (ev.Kind == EventFirstToken) != (l.tokens == 0) || ev.Tokens != l.tokens+1 {
			return fmt.Errorf("%s with %d tokens after %d", ev.Kind, ev.Tokens, l.tokens)
		}
		l.tokens++
	case EventFinished:
		if l.finished || l.tokens != l.out {
			return fmt.Errorf("finished after %d of %d tokens", l.tokens, l.out)
		}
		l.finished = true
	case EventPreempted:
		if !l.scheduled || l.finished {
			return fmt.Errorf("preempted before scheduling or after finishing")
		}
	}
	return nil
}

func TestRandomizedInvariants(t *testing.T) {
	t.Parallel()
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			randomRun(t, rand.New(rand.NewPCG(seed, 0x5eed)))
		})
	}
}

// randomRun drives an engine with a random small configuration through
// random arrivals sharing prefixes, random priorities and aborts, checking
// the invariants after every step and that every request not aborted
// finishes once arrivals stop.
func randomRun(t *testing.T, rng *rand.Rand) {
	bs := []int{1, 4, 16}[rng.IntN(3)]
	cfg := EngineConfig{
		MaxNumBatchedTokens: 1 + rng.IntN(200),
		MaxNumSeqs:          1 + rng.IntN(12),
		BlockSize:           bs,
		NumBlocks:           4 + rng.IntN(400/bs),
		EnablePrefixCaching: rng.IntN(4) > 0,
		WindowBlocks:        []int{0, 0, 1, 3}[rng.IntN(4)],
		Policy:              []Policy{VLLM, VLLM, NoEvict}[rng.IntN(3)],
	}
	fc := &budgetCost{t: t, cfg: cfg}
	e, err := NewEngine(cfg, fc)
	if err != nil {
		t.Fatal(err)
	}
	cfg = e.Config()
	logs := map[uint64]*reqLog{}
	var now, arrival time.Duration
	n := 30 + rng.IntN(60)
	for id := uint64(0); id < uint64(n) || !e.Idle(); {
		if id < uint64(n) && (e.Idle() || arrival <= now) {
			r := randomRequest(rng, id, arrival, cfg)
			if err := e.Add(r); err == nil {
				logs[id] = &reqLog{out: r.OutputLen}
			}
			id++
			arrival += time.Duration(rng.ExpFloat64() * float64(3*time.Millisecond))
			now = max(now, min(arrival, now+time.Second))
			continue
		}
		if rng.IntN(50) == 0 {
			victim := uint64(rng.IntN(int(id)))
			e.Abort(victim)
			if l := logs[victim]; l != nil && !l.finished {
				l.aborted = true
			}
		}
		res := e.Step(now)
		if res.Duration <= 0 && !e.Idle() {
			t.Fatalf("empty step while %d running, %d waiting", res.Running, res.Waiting)
		}
		now += res.Duration
		for _, ev := range res.Events {
			if ev.Time != now {
				t.Fatalf("event %+v not at step end %v", ev, now)
			}
			if l := logs[ev.ID]; l == nil || l.aborted {
				t.Fatalf("event %+v for an aborted or unknown request", ev)
			} else if err := l.see(ev); err != nil {
				t.Fatalf("request %d: %v", ev.ID, err)
			}
		}
		if err := e.check(); err != nil {
			t.Fatalf("after step at %v: %v", now, err)
		}
	}
	for id, l := range logs {
		if !l.aborted && !l.finished {
			t.Errorf("request %d never finished: %+v", id, l)
		}
	}
	t.Logf("%d requests accepted, stats %+v", len(logs), e.Stats())
	if e.kv.used() != 0 || e.kv.numFree != cfg.NumBlocks {
		t.Errorf("idle engine holds %d blocks, %d free of %d", e.kv.used(), e.kv.numFree, cfg.NumBlocks)
	}
}

// randomRequest draws a request whose prompt shares 0–3 leading blocks
// with one of three prefix families.
func randomRequest(rng *rand.Rand, id uint64, arrival time.Duration, cfg EngineConfig) *Request {
	prompt := 1 + rng.IntN(150)
	full := prompt / cfg.BlockSize
	return &Request{
		ID:          id,
		Arrival:     arrival,
		PromptLen:   prompt,
		BlockHashes: hashes(uint64(rng.IntN(3)), full, min(full, rng.IntN(4)), id+100),
		OutputLen:   1 + rng.IntN(60),
		Priority:    rng.IntN(3),
	}
}
