package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

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
// streams and compares, request by request, what the client measured
// with what the engine server measured itself (surge_timings, carried
// into the records). The client's clock starts when the request is
// written and the server's when its handler starts; the server's TTFT
// ends when its handler has written the first token and its E2E when it
// has written the last bytes (see sim/server's package doc). The built-in
// engine is reached through memnet pipes, whose writes return when the
// other end has read, so
//
//	client − server = (handler start − request read) + (client's handling of the bytes it read)
//
// which is the HTTP and SSE handling on both sides, plus any wait for a
// core between them. Every request must succeed with 32 tokens and carry
// server timings, and the medians of the per-request differences of TTFT,
// E2E and mean ITL must be at least −0.1 ms (the client cannot see less
// time than the server, beyond the order in which the two read the clock)
// and at most 50 ms, or 2 ms with SURGE_STRICT_TIMING, where .ci/run runs
// the test alone: the agreement the issue asks for. Observed on a quiet 2-core
// machine: TTFT 0.05–0.5 ms, E2E 0.09–0.5 ms (over loopback TCP the same
// run gave 10 ms, because goroutines the network poller makes ready wait
// behind a step's worth of others; see internal/memnet).
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
	var dTTFT, dE2E, dITL []float64
	for _, r := range rs.Records {
		if !r.OK() || r.ServerOutputTokens != 32 || r.ServerTTFTUS <= 0 || r.ServerE2EUS < r.ServerTTFTUS {
			t.Fatalf("record %+v", r)
		}
		dTTFT = append(dTTFT, float64(r.TTFTUS-r.ServerTTFTUS))
		dE2E = append(dE2E, float64(r.E2EUS-r.ServerE2EUS))
		dITL = append(dITL, float64((r.E2EUS-r.TTFTUS)-(r.ServerE2EUS-r.ServerTTFTUS))/31)
	}
	lo, hi := -100.0, 50_000.0 // µs
	if os.Getenv("SURGE_STRICT_TIMING") != "" {
		hi = 2000
	}
	for _, d := range []struct {
		name string
		v    []float64
	}{{"TTFT", dTTFT}, {"E2E", dE2E}, {"mean ITL", dITL}} {
		m := median(d.v)
		t.Logf("%s: client − server median %.1f µs, p90 %.1f µs", d.name, m, quantile(d.v, 0.9))
		if m < lo || m > hi {
			t.Errorf("%s: median of client − server per request %.1f µs, want within [%g, %g] µs", d.name, m, lo, hi)
		}
	}
}

// median returns the middle value of v (the upper one of an even count).
func median[T int64 | float64](v []T) T { return quantile(v, 0.5) }

// quantile returns the value of v at rank ⌊q·len(v)⌋ in sorted order.
func quantile[T int64 | float64](v []T, q float64) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[int(q*float64(len(s)))]
}
