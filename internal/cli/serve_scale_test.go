package cli

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// strictScale turns on TestServeScale's 2 ms agreement bound, which this
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
// its handler starts; the server's first and last token times are when its
// loop delivers a step, before the handlers write. So
//
//	client − server = (handler start − sent) + (client read − delivery),
//
// which is the loopback HTTP and SSE handling on both sides. Every request
// must succeed with 32 tokens and carry server timings, and each median
// of the server must not exceed the client's by more than 2 ms (the
// server cannot see more time than the client does). With -strict-scale
// the medians must also agree within 2 ms both ways. They do not on a
// 2-core machine: each decode step delivers up to 1,000 tokens at once,
// and writing (one flush, one write syscall each) and reading them takes
// about 30 µs of CPU per token, so the median stream sees its token
// roughly 5–15 ms after the step's delivery time (observed medians:
// TTFT 10 ms, E2E 5 ms apart; 0.4 ms at 10 streams, 3 ms at 100).
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
