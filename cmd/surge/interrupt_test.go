package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"surge/internal/testbin"
)

// binary is surge built once for the tests that run it as a process.
var binary testbin.Build

// TestMain removes the built binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	binary.Remove()
	os.Exit(code)
}

// TestInterruptTwiceKeepsReport runs surge against the built-in engine
// and interrupts it twice at once, as `timeout -s INT` does (the process,
// then its process group), or twice a moment apart; either way surge
// must stop with its report and manifest written. Under timeout the
// signals come from timeout itself, relaying an interrupt it is sent
// once the run has started, which takes the same path as its expiry
// without racing the start of a run on a loaded machine.
func TestInterruptTwiceKeepsReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it for a few seconds")
	}
	t.Parallel()
	for _, tt := range []struct {
		name    string
		timeout bool          // run under timeout -s INT, and interrupt timeout
		gap     time.Duration // else: between two SIGINTs to surge
	}{
		{"under timeout -s INT", true, 0},
		{"two interrupts 200 ms apart", false, 200 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			timeout, err := exec.LookPath("timeout")
			if tt.timeout && err != nil {
				t.Skip("no timeout command")
			}
			bin, tmp := binary.Path(t, "../.."), t.TempDir()
			spec := filepath.Join(tmp, "s.yaml")
			// Requests of 400 output tokens are in flight at the interrupt.
			os.WriteFile(spec, []byte("version: 1\nduration: 10m\nclients:\n  - {name: c, model: meta-llama/Llama-3.1-8B-Instruct, rate: 10/s, input: 50, output: 400}\n"), 0o644)
			dir := filepath.Join(tmp, "run")
			args := []string{bin, "run", spec, "-o", dir}
			if tt.timeout {
				args = append([]string{timeout, "-s", "INT", "10m"}, args...)
			}
			cmd := exec.Command(args[0], args[1:]...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() })
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			waitForRecord(t, filepath.Join(dir, "records.jsonl"), done)
			cmd.Process.Signal(syscall.SIGINT)
			if !tt.timeout {
				time.Sleep(tt.gap)
				cmd.Process.Signal(syscall.SIGINT)
			}
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatalf("surge still running 60 s after SIGINT\nstderr:\n%s", stderr.String())
			}
			for _, name := range []string{"report.txt", "manifest.json"} {
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Errorf("%s: %v (exit %v)\nstderr:\n%s", name, err, cmd.ProcessState, stderr.String())
				}
			}
			if !strings.Contains(stdout.String(), "INTERRUPTED") {
				t.Errorf("report not printed or not marked interrupted:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
		})
	}
}

// waitForRecord polls the records file a run is writing until it holds a
// line, failing the test if the run exits first (done) or none appears
// within a minute.
func waitForRecord(t *testing.T, path string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if data, err := os.ReadFile(path); err == nil && bytes.Count(data, []byte("\n")) > 1 {
			return
		}
		select {
		case err := <-done:
			t.Fatalf("surge exited (%v) before recording a request", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no record in %s after a minute", path)
		}
	}
}
