package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"
)

// pacedServer streams n tokens after ttft, one every itl, flushing each,
// and records when it received each request and when each flush returned,
// keyed by the request's model name.
type pacedServer struct {
	ttft, itl time.Duration
	n         int

	mu   sync.Mutex // guards runs
	runs map[string]*serverRun
}

// serverRun is the server's view of one request.
type serverRun struct {
	recv    time.Time   // handler started
	flushes []time.Time // each token's flush returned
	end     time.Time   // [DONE] flushed
}

func (ps *pacedServer) handle(w http.ResponseWriter, r *http.Request) {
	run := &serverRun{recv: time.Now()}
	var body struct{ Model string }
	json.NewDecoder(r.Body).Decode(&body)
	s := startSSE(w)
	if body.Model == "warm-up" {
		s.send(finishChunk("stop"))
		s.send("[DONE]")
		return
	}
	s.send(roleChunk())
	time.Sleep(ps.ttft)
	for i := range ps.n {
		if i > 0 {
			time.Sleep(ps.itl)
		}
		run.flushes = append(run.flushes, s.send(contentChunk(fmt.Sprint(" t", i))))
	}
	s.send(finishChunk("length"))
	s.send(usageChunk(10, ps.n))
	run.end = s.send("[DONE]")
	ps.mu.Lock()
	ps.runs[body.Model] = run
	ps.mu.Unlock()
}

// run returns the server's view of the request for model, or nil. The
// handler stores it after its last write, and a client's Do returns only
// once the response ended, but through the socket, which the race
// detector does not see: the lock is what orders the two for it.
func (ps *pacedServer) run(model string) *serverRun {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.runs[model]
}

// median returns the median of xs, which it sorts.
func median(xs []time.Duration) time.Duration {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// timingAccuracy runs requests at the given concurrency (waves of it) and
// compares the client's TTFT, ITL and E2E with the server's, pair by pair:
// the client's figure for a request (or a gap) minus the server's for the
// same one is the client's error there, and the median of those errors is
// the client's typical error, which the goal bounds. The difference of the
// two medians is logged but not asserted: it compares the two figures of
// different requests, so a few late wake-ups of the client's readers (this
// machine's threads, shared with the server, not the client's code) move it
// by their mean rather than by the typical error.
func timingAccuracy(t *testing.T, concurrency, waves int) {
	ps := &pacedServer{ttft: 50 * time.Millisecond, itl: 10 * time.Millisecond, n: 64, runs: map[string]*serverRun{}}
	c, _ := serve(t, Config{MaxConns: concurrency}, ps.handle)
	// Open the connections first: dialling 256 at once makes the server
	// accept them late, a delay that is real but not the client's to
	// measure here.
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(func() { checkOK(t, c.Do(context.Background(), &Request{API: "chat", Model: "warm-up", Stream: true})) })
	}
	wg.Wait()
	// Starts are staggered by a millisecond so that the streams' tokens do
	// not all fall due in the same instant: all of them are still in flight
	// together (each lasts about 0.7 s), but the server and the client,
	// sharing this machine's cores, are not swamped by bursts of hundreds
	// of simultaneous flushes, whose queueing would be measured instead of
	// the client.
	results := make([]*Result, concurrency*waves)
	for w := range waves {
		var wg sync.WaitGroup
		for i := range concurrency {
			k := w*concurrency + i
			time.Sleep(time.Millisecond)
			wg.Go(func() {
				results[k] = c.Do(context.Background(), &Request{API: "chat", Model: fmt.Sprint("r", k), Prompt: "x", MaxTokens: ps.n, Stream: true})
			})
		}
		wg.Wait()
	}
	ttft, itl, e2e := &pairs{}, &pairs{}, &pairs{}
	var delivery []time.Duration
	for k, res := range results {
		checkOK(t, res)
		run := ps.run(fmt.Sprint("r", k))
		if run == nil || len(res.TokenTimes) != ps.n || res.CompletionTokens != ps.n {
			t.Fatalf("request %d: %d token times, %d completion tokens, server run %v", k, len(res.TokenTimes), res.CompletionTokens, run != nil)
		}
		ttft.add(res.FirstToken.Sub(res.Sent), run.flushes[0].Sub(run.recv))
		e2e.add(res.Last.Sub(res.Sent), run.end.Sub(run.recv))
		for i := range ps.n {
			delivery = append(delivery, res.TokenTimes[i].Sub(run.flushes[i]))
			if i > 0 {
				itl.add(res.TokenTimes[i].Sub(res.TokenTimes[i-1]), run.flushes[i].Sub(run.flushes[i-1]))
			}
		}
	}
	bound := timingBound()
	for _, m := range []struct {
		name  string
		p     *pairs
		bound time.Duration
	}{
		{"TTFT", ttft, perRequestBound()},
		{"ITL", itl, bound},
		{"E2E", e2e, perRequestBound()},
	} {
		errs := m.p.errors()
		me := errs[len(errs)/2]
		t.Logf("c=%d %s: client − server per pair: median %v, p90 %v; medians: client %v, server %v",
			concurrency, m.name, me, errs[len(errs)*9/10], median(m.p.client), median(m.p.server))
		if me.Abs() > m.bound {
			t.Errorf("c=%d: %s: the client's figure differs from the server's by %v at the median of %d pairs (bound %v)", concurrency, m.name, me, len(errs), m.bound)
		}
	}
	md := median(delivery)
	t.Logf("c=%d token delivery (client read − server flush): median %v, p99 %v", concurrency, md, delivery[len(delivery)*99/100])
	if md.Abs() > bound {
		t.Errorf("c=%d: median token delivery delay %v", concurrency, md)
	}
}

// pairs holds the client's and the server's figures of the same requests
// (or gaps), in the same order.
type pairs struct{ client, server []time.Duration }

// add records one request's figures.
func (p *pairs) add(client, server time.Duration) {
	p.client = append(p.client, client)
	p.server = append(p.server, server)
}

// errors returns client − server for every pair, sorted.
func (p *pairs) errors() []time.Duration {
	out := make([]time.Duration, len(p.client))
	for i := range p.client {
		out[i] = p.client[i] - p.server[i]
	}
	slices.Sort(out)
	return out
}

// strictTiming reports whether the timing tests run alone (SURGE_STRICT_TIMING
// set, as in .ci/run's step of its own), where the 1 ms goal is asserted.
func strictTiming() bool { return os.Getenv("SURGE_STRICT_TIMING") != "" }

// timingBound is how far the client's medians may stray from the server's:
// the 1 ms goal when the test runs alone; otherwise anything else on the two
// cores (the race detector, other packages' tests under go test ./...)
// shows up in the medians, and 5 ms still catches gross errors such as
// stamping after decoding.
func timingBound() time.Duration {
	if strictTiming() {
		return time.Millisecond
	}
	return 5 * time.Millisecond
}

// perRequestBound is the bound for the medians of one figure per request
// (TTFT, E2E). With SURGE_STRICT_TIMING it is timingBound's 1 ms goal;
// otherwise 20 ms, since the serial test has only 3 requests: their median
// is the second worst, so a scheduling stall of the loaded machine that
// catches two of them moves it, where the ITL and delivery medians over
// hundreds of tokens are not moved by a few stalls and keep the 5 ms bound.
// 20 ms still catches gross errors such as taking the role chunk (50 ms
// before the first token here) for the first token.
func perRequestBound() time.Duration {
	if strictTiming() {
		return timingBound()
	}
	return 20 * time.Millisecond
}

// These two tests are not parallel, so other tests in this package do not
// disturb them.

func TestTimingAccuracySerial(t *testing.T) { timingAccuracy(t, 1, 3) }

// TestTimingAccuracy256 needs the machine to itself: 256 streams on two
// cores shared with other tests measure the contention, not the client.
func TestTimingAccuracy256(t *testing.T) {
	if !strictTiming() {
		t.Skip("set SURGE_STRICT_TIMING=1 and run alone, as .ci/run does: 256 streams sharing the cores with other tests measure the contention")
	}
	timingAccuracy(t, 256, 1)
}
