package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"surge/internal/selftest"
	"surge/trace"
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

// TestServeScale drives the built-in engine at 1,000 concurrent streams
// and compares, request by request, what the client measured with what
// the engine measured itself (surge_timings, carried into the records).
// The client's clock starts when the request is written and stops when it
// reads a token; the engine's starts when the request's bytes reached its
// socket (the kernel's receive time) and stops when its handler has
// flushed the token (see sim/server's package doc). So client − engine is
// the time the client took to read what the engine had sent: its
// measurement error. Every request must succeed with 32 tokens and carry
// the engine's timings, and the medians of the per-request differences of
// TTFT, E2E and mean ITL must be at least −1 ms (the client's clock
// starts before its write, when the kernel stamps the request, and ends
// when a token's bytes reached its socket, which follows the engine's
// write; only the engine reading its clock late after that write, when
// it waits for a core, puts the client behind) and at most 250 ms (a sanity bound), both
// only under SURGE_STRICT_TIMING: under the race detector beside other
// tests the in-process TTFT median has reached 342 ms and the mean ITL
// −1.1 ms.
//
// "separate processes" runs `surge serve` and `surge run` as two
// processes, each pinned to a core of its own when taskset is there, as
// a client and a server on two machines would be; with
// SURGE_STRICT_TIMING (.ci/run runs it alone) its TTFT and mean ITL
// medians must also be within 2 ms. Observed on a quiet 2-core machine
// since the client stamps reads with the kernel's receive time and sends
// just before a request's first write, medians over 4 runs, pinned and
// "in process" (`surge run` with no --target, client and engine sharing
// two cores and one Go scheduler, where each engine step makes 256
// handlers ready before the client's goroutines run) alike: TTFT −1 µs,
// mean ITL 0.6–0.7 µs, E2E 18–20 µs. Stamped when the readers ran and
// sent when handed to the connection, in-process TTFT differed by
// 1.6–3.8 ms and E2E by 2.8–4.2 ms.
func TestServeScale(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 requests at concurrency 1,000: skipped in -short")
	}
	t.Parallel()
	t.Run("in process", func(t *testing.T) {
		dir := t.TempDir()
		spec := writeSpec(t, dir, "scale.yaml", scaleSpec)
		out := filepath.Join(dir, "run")
		if code, stdout, stderr := run(t, "run", spec, "-o", out); code != exitOK {
			t.Fatalf("exit %d\nstderr:\n%s\nstdout:\n%s", code, stderr, stdout)
		}
		checkScale(t, readRun(t, out).Records, false)
	})
	t.Run("separate processes", func(t *testing.T) {
		dir := t.TempDir()
		spec := writeSpec(t, dir, "scale.yaml", scaleSpec)
		out := filepath.Join(dir, "run")
		bin := surgeBinary(t)
		url := serveProcess(t, pinned(0, bin, "serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--addr", "127.0.0.1:0"))
		cmd := pinned(1, bin, "run", spec, "--target", url, "--no-scrape", "-o", out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("surge run: %v\n%s", err, b)
		}
		checkScale(t, readRun(t, out).Records, os.Getenv("SURGE_STRICT_TIMING") != "")
	})
}

// checkScale checks the records of a TestServeScale run; strict asks for
// agreement within 2 ms.
func checkScale(t *testing.T, rs []trace.Record, strict bool) {
	t.Helper()
	if len(rs) != 2000 {
		t.Fatalf("%d records, want 2000", len(rs))
	}
	var dTTFT, dE2E, dITL []float64
	for _, r := range rs {
		if !r.OK() || r.ServerOutputTokens != 32 || r.ServerTTFTUS <= 0 || r.ServerE2EUS < r.ServerTTFTUS {
			t.Fatalf("record %+v", r)
		}
		dTTFT = append(dTTFT, float64(r.TTFTUS-r.ServerTTFTUS))
		dE2E = append(dE2E, float64(r.E2EUS-r.ServerE2EUS))
		dITL = append(dITL, float64((r.E2EUS-r.TTFTUS)-(r.ServerE2EUS-r.ServerTTFTUS))/31)
	}
	for _, d := range []struct {
		name   string
		v      []float64
		strict bool
	}{{"TTFT", dTTFT, strict}, {"E2E", dE2E, false}, {"mean ITL", dITL, strict}} {
		lo, hi := -1000.0, 250_000.0 // µs
		if d.strict {
			hi = 2000
		}
		m := median(d.v)
		t.Logf("%s: client − engine median %.1f µs, p90 %.1f µs", d.name, m, quantile(d.v, 0.9))
		if os.Getenv("SURGE_STRICT_TIMING") == "" {
			continue // wall-clock bounds need quiet cores (seen: 342 ms under -race beside other tests)
		}
		if m < lo || m > hi {
			t.Errorf("%s: median of client − engine per request %.1f µs, want within [%g, %g] µs", d.name, m, lo, hi)
		}
	}
}

// serveProcess starts cmd, a `surge serve` on an ephemeral port, stops it
// when the test ends, and returns its URL.
func serveProcess(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmd.WaitDelay = 5 * time.Second
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
		cmd.Wait()
	})
	url, err := selftest.ListeningOn(t.Context(), stdout)
	if err != nil {
		t.Fatalf("surge serve: %v", err)
	}
	return url
}

// median returns the middle value of v (the upper one of an even count).
func median[T int64 | float64](v []T) T { return quantile(v, 0.5) }

// quantile returns the value of v at rank ⌊q·len(v)⌋ in sorted order.
func quantile[T int64 | float64](v []T, q float64) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[int(q*float64(len(s)))]
}
