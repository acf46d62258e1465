package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInspectPartialBundles runs surge against the built-in engine and
// stops it three ways: Ctrl-C (the context cancelled), SIGKILL, and not
// at all but with a report edited afterwards. inspect says what each
// bundle holds and lacks, exits 0 on the two partial ones, whose files
// present all check out, and 1 on the edited one.
func TestInspectPartialBundles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs surge for a few seconds, and builds the binary to kill it")
	}
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "long.yaml", "version: 1\nduration: 10m\nclients:\n  - {name: c, model: Llama-3.1-8B, rate: 20/s, input: 50, output: 20}\n")
	tests := []struct {
		name string
		make func(t *testing.T, dir string)
		code int
		want []string // in inspect's output
		not  []string // not in it
	}{
		{"interrupted", func(t *testing.T, dir string) { interruptRun(t, spec, dir) }, exitOK,
			[]string{"state      interrupted", "(trace.jsonl matches)", "records.jsonl", "report.html", " ✓"}, []string{"missing", "✗"}},
		{"killed", func(t *testing.T, dir string) { killRun(t, spec, dir) }, exitOK,
			[]string{"state      killed", "(trace.jsonl matches the records header)", "records.jsonl", "unchecked",
				"missing    manifest.json, report.html, report.json, report.txt", "records"}, []string{"✗"}},
		{"report edited", func(t *testing.T, dir string) { editedRun(t, dir) }, exitFailure,
			[]string{"state      complete", "report.txt ✗", "records.jsonl"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(tmp, strings.ReplaceAll(tt.name, " ", "-"))
			tt.make(t, dir)
			code, out, errOut := run(t, "inspect", dir)
			if code != tt.code {
				t.Errorf("inspect: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			for _, s := range tt.want {
				if !strings.Contains(out, s) {
					t.Errorf("inspect does not say %q:\n%s", s, out)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(out, s) {
					t.Errorf("inspect says %q:\n%s", s, out)
				}
			}
		})
	}
}

// interruptRun runs spec into dir and cancels the run, as Ctrl-C does,
// once a request has succeeded.
func interruptRun(t *testing.T, spec, dir string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	done := make(chan error, 1)
	var code int
	go func() {
		code = Main(ctx, []string{"run", spec, "-o", dir}, strings.NewReader(""), &out, &errOut)
		close(done)
	}()
	waitForSuccess(t, filepath.Join(dir, "records.jsonl"), done, 60*time.Second)
	cancel()
	<-done
	if code != exitInterrupted {
		t.Fatalf("run: exit %d, want %d\nstderr:\n%s", code, exitInterrupted, errOut.String())
	}
}

// killRun runs spec into dir in a surge process and kills it with
// SIGKILL once a request has succeeded.
func killRun(t *testing.T, spec, dir string) {
	t.Helper()
	cmd := exec.Command(surgeBinary(t), "run", spec, "-o", dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitForSuccess(t, filepath.Join(dir, "records.jsonl"), done, 60*time.Second)
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// editedRun simulates a short run into dir, then edits its text report.
func editedRun(t *testing.T, dir string) {
	t.Helper()
	if code, _, errOut := run(t, "sim", "../../examples/chat.yaml", "--model", "llama-3.1-8b", "--gpu", "h100", "--duration", "10s", "-o", dir); code != exitOK {
		t.Fatalf("sim: exit %d\n%s", code, errOut)
	}
	path := filepath.Join(dir, "report.txt")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("p99 TTFT was fine, really\n")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
