package cli

import (
	"bytes"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"surge/trace"
)

// TestInterruptKeepsRecords builds surge, starts a long run against a slow
// server, sends SIGINT, and checks that surge exits within 5 s with every
// record it saw on disk, an end line marked interrupted, and a report that
// says so.
func TestInterruptKeepsRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it for a few seconds")
	}
	t.Parallel()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "surge")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/surge").CombinedOutput(); err != nil {
		t.Fatalf("building surge: %v\n%s", err, out)
	}
	// Each request streams for about 3 s, so many are in flight at the
	// interrupt.
	srv := httptest.NewServer(fakeServer{ttft: 100 * time.Millisecond, itl: 50 * time.Millisecond, tokens: 60})
	defer srv.Close()
	spec := filepath.Join(tmp, "long.yaml")
	os.WriteFile(spec, []byte("version: 1\nduration: 10m\nclients:\n  - {name: c, model: m, rate: 20/s, input: 50, output: 60}\n"), 0o644)
	dir := filepath.Join(tmp, "run")
	cmd := exec.Command(bin, "run", spec, "--target", srv.URL, "-o", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(4 * time.Second) // some requests finish, others are in flight
	cmd.Process.Signal(syscall.SIGINT)
	signalled := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if cmd.ProcessState.ExitCode() != exitInterrupted {
			t.Errorf("exit %v, want code %d", err, exitInterrupted)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("surge still running 10 s after SIGINT")
	}
	if took := time.Since(signalled); took > 5*time.Second {
		t.Errorf("surge took %v to exit after SIGINT, want under 5 s", took)
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
