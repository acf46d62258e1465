package cli

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// strictScale turns on TestServeScale's 2 ms agreement bound, which a
// 2-core machine does not meet at 1,000 streams (see the test's comment).
var strictScale = flag.Bool("strict-scale", false, "TestServeScale: require client and server medians within 2 ms")

// scaleSpec is one closed-loop client keeping 1,000 requests in flight
// against the built-in engine, with exact outputs so every request streams
// 32 tokens.
const scaleSpec = `version: 1
seed: 11
requests: 2000
clients:
  - name: crowd
    model: Llama-3.1-8B
    concurrency: 1000
    input: 64
    output: 32
    sampling: {exact_output: true}
`

// TestServeScale runs `surge run` with no --target at 1,000 concurrent
// streams and compares what the client measured with what the engine
// server measured itself (surge_timings, carried into the records). The
// client's clock starts when the request is written and the server's when
// its handler starts; the server's TTFT ends when its handler flushes the
// first token and its E2E when it writes the last bytes (see sim/server's
// package doc). So
//
//	client − server = (handler start − sent) + (client read − server write),
//
// which is the loopback HTTP and SSE handling on both sides. Every request
// must succeed with 32 tokens and carry server timings, and each median
// of the server must not exceed the client's by more than 2 ms (the
// server cannot see more time than the client does). With -strict-scale
// the medians must also agree within 2 ms both ways. They do not on a
// 2-core machine. The engine runs 256 sequences (max_num_seqs), so each
// step wakes up to 256 handlers, each one write syscall (~8 µs), and the
// client one read (~6 µs) per token. Goroutines the network poller makes
// ready are only picked up when a P runs out of work, and then run FIFO
// behind the rest of that batch, mostly the client's readers: a
// runtime/trace showed the server's connection goroutines waiting p50
// 1.4 ms, p90 9 ms to run once a new request had been noticed. Observed
// on a quiet 2-core machine: this test's differences of medians TTFT
// 3.3–13.8 ms, E2E 3.7–14.3 ms (noisy: the medians sit in a 2.3 s
// queueing wait); medians of per-request differences, requests sent after
// the first second: TTFT 3.3–4.6 ms, E2E 3.9–5.7 ms, of which request
// written → handler start 1.8–3.1 ms and first flush → client read
// 1.1–1.3 ms. The first flush is itself 1.1–1.7 ms after the step that
// made the token. No server-side change helped: one or two writer
// goroutines writing every stream's chunks instead of its handler (with
// or without yielding), the final chunk and the chunked terminator in one
// write, and the loop writing itself all left the per-request medians
// within the run-to-run noise, and the writers raised the step → flush
// time to 2–4.6 ms. More Ps do help: per-request TTFT 1.7–3.2 ms and E2E
// 1.9–3.2 ms with GOMAXPROCS=8 (4 runs), 1.4–2.1 and 2.1–3.1 ms with 16
// (3 runs); the engine in a separate process 3.1–3.3 ms (2 runs).
func TestServeScale(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 requests at concurrency 1,000: skipped in -short")
	}
	t.Parallel()
	dir := t.TempDir()
	spec := filepath.Join(dir, "scale.yaml")
	if err := os.WriteFile(spec, []byte(scaleSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	began := time.Now()
	code, stdout, stderr := run(t, "run", spec, "-o", out)
	t.Logf("surge run took %v", time.Since(began).Round(time.Millisecond))
	if code != exitOK {
		t.Fatalf("exit %d\nstderr:\n%s\nstdout:\n%s", code, stderr, stdout)
	}
	rs := readRun(t, out)
	if len(rs.Records) != 2000 {
		t.Fatalf("%d records, want 2000", len(rs.Records))
	}
	var ttft, sttft, e2e, se2e []int64
	for _, r := range rs.Records {
		if !r.OK() || r.ServerOutputTokens != 32 || r.ServerTTFTUS <= 0 || r.ServerE2EUS < r.ServerTTFTUS {
			t.Fatalf("record %+v", r)
		}
		ttft, sttft = append(ttft, r.TTFTUS), append(sttft, r.ServerTTFTUS)
		e2e, se2e = append(e2e, r.E2EUS), append(se2e, r.ServerE2EUS)
	}
	// The bound is on the difference of medians, not a median of
	// differences: both are stable at this size, and the medians are what a
	// report shows side by side.
	const bound = 2000 // µs
	dTTFT, dE2E := median(ttft)-median(sttft), median(e2e)-median(se2e)
	t.Logf("median TTFT client %d µs, server %d µs (diff %d); E2E client %d µs, server %d µs (diff %d)",
		median(ttft), median(sttft), dTTFT, median(e2e), median(se2e), dE2E)
	if dTTFT < -bound || dE2E < -bound {
		t.Errorf("median client − server: TTFT %d µs, E2E %d µs; the server cannot see over %d µs more than the client", dTTFT, dE2E, bound)
	}
	if *strictScale && (abs(dTTFT) > bound || abs(dE2E) > bound) {
		t.Errorf("median client − server: TTFT %d µs, E2E %d µs; want both within %d µs", dTTFT, dE2E, bound)
	}
}

// median returns the middle value of v (the upper one of an even count).
func median(v []int64) int64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
