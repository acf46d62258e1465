package cli

import (
	"bytes"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"surge/trace"
)

// TestInterruptKeepsRecords builds surge, starts a long run against a slow
// server, sends SIGINT once a request has finished, and checks that surge
// stops promptly (within 15 s, where the run would last 10 min) with every
// record it saw on disk, an end line marked interrupted, and a report that
// says so.
func TestInterruptKeepsRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it for a few seconds")
	}
	t.Parallel()
	tmp := t.TempDir()
	bin := surgeBinary(t)
	// Each request streams for about 3 s, so many are in flight at the
	// interrupt.
	srv := httptest.NewServer(fakeServer{ttft: 100 * time.Millisecond, itl: 50 * time.Millisecond, tokens: 60})
	defer srv.Close()
	spec := writeSpec(t, tmp, "long.yaml", "version: 1\nduration: 10m\nclients:\n  - {name: c, model: m, rate: 20/s, input: 50, output: 60}\n")
	dir := filepath.Join(tmp, "run")
	cmd := exec.Command(bin, "run", spec, "--target", srv.URL, "-o", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A test that fails before the interrupt must not leave a 10-minute
	// run behind; killing a process that has exited does nothing.
	t.Cleanup(func() { cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Interrupt once a request has finished (others are then in flight),
	// however long a loaded machine takes to get there.
	waitForSuccess(t, filepath.Join(dir, "records.jsonl"), done, 60*time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		if cmd.ProcessState.ExitCode() != exitInterrupted {
			t.Errorf("exit %v, want code %d", err, exitInterrupted)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("surge still running 15 s after SIGINT\nstderr:\n%s", stderr.String())
	}
	rs := readRun(t, dir)
	if rs.End == nil || !rs.End.Interrupted {
		t.Fatalf("end line %+v, want one marked interrupted", rs.End)
	}
	ok, cancelled := 0, 0
	for _, r := range rs.Records {
		switch {
		case r.OK():
			ok++
		case r.ErrorClass == trace.ErrCancelled:
			cancelled++
		}
	}
	if ok == 0 || cancelled == 0 || len(rs.Records) != rs.End.Sent {
		t.Errorf("%d ok, %d cancelled of %d records, %d sent: want finished and cancelled requests, all recorded", ok, cancelled, len(rs.Records), rs.End.Sent)
	}
	if !strings.Contains(stdout.String(), "INTERRUPTED") {
		t.Errorf("report not marked interrupted:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}

// waitForSuccess polls the records file a run is writing until it holds a
// successful record, failing the test if the run exits first (done) or
// none appears within limit.
func waitForSuccess(t *testing.T, path string, done <-chan error, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		// A file caught mid-write ends in a partial line: ReadRecords
		// then returns the complete records with an error, which is
		// expected here.
		if data, err := os.ReadFile(path); err == nil {
			if rs, _ := trace.ReadRecords(bytes.NewReader(data)); rs != nil && slices.ContainsFunc(rs.Records, func(r trace.Record) bool { return r.OK() }) {
				return
			}
		}
		select {
		case err := <-done:
			t.Fatalf("surge exited (%v) before recording a successful request", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no successful record in %s after %v", path, limit)
		}
	}
}
