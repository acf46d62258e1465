package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/trace"
)

// pipe runs surge with args, stdin as its standard input, and returns its
// exit code, stdout and stderr.
func pipe(t *testing.T, stdin []byte, args ...string) (int, []byte, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.Bytes(), errOut.String()
}

// TestPipeGenRunReport is surge gen SPEC | surge run - -o - | surge
// report -: the trace goes from gen to run on a pipe, the records from
// run to report, the built-in engine serves, and no directory is left
// behind, neither one named - nor a temporary one. It changes the working
// directory, so it does not run in parallel.
func TestPipeGenRunReport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built-in engine for 10 s")
	}
	spec, err := filepath.Abs("../../examples/chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cwd, tmp := t.TempDir(), t.TempDir()
	t.Chdir(cwd)
	t.Setenv("TMPDIR", tmp)
	code, tr, errOut := pipe(t, nil, "gen", spec, "--duration", "10s")
	if code != exitOK {
		t.Fatalf("gen: exit %d\n%s", code, errOut)
	}
	code, records, errOut := pipe(t, tr, "run", "-", "-o", "-")
	if code != exitOK {
		t.Fatalf("run - -o -: exit %d\nstderr:\n%s", code, errOut)
	}
	rs, err := trace.ReadRecords(bytes.NewReader(records))
	if err != nil || rs.End == nil || len(rs.Records) == 0 {
		t.Fatalf("run -o - wrote no whole records file on stdout (%v):\n%.500s", err, records)
	}
	if !strings.Contains(errOut, "TTFT") || strings.Contains(errOut, "no successful request") {
		t.Errorf("run -o - printed no report on stderr:\n%s", errOut)
	}
	code, rep, errOut := pipe(t, records, "report", "-")
	if code != exitOK || !strings.Contains(string(rep), "TTFT") || strings.Contains(string(rep), "no successful request") {
		t.Errorf("report -: exit %d, want 0 and a report with latencies\nstdout:\n%s\nstderr:\n%s", code, rep, errOut)
	}
	for _, dir := range []string{cwd, tmp} {
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%s holds %v after the pipe, want nothing", dir, left)
		}
	}
}

// TestPipeStdin: sim and inspect read a trace from stdin, run and sim a
// spec, and report -, given a records file, the same report as report
// FILE.
func TestPipeStdin(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec, err := os.ReadFile("../../examples/chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, tr, errOut := pipe(t, nil, "gen", "../../examples/chat.yaml", "--duration", "20s")
	if code != exitOK {
		t.Fatalf("gen: exit %d\n%s", code, errOut)
	}
	sim := []string{"sim", "-", "--model", "llama-3.1-8b", "--gpu", "h100"}
	for _, in := range []struct {
		name string
		data []byte
	}{{"trace", tr}, {"spec", spec}} {
		dir := filepath.Join(tmp, in.name)
		if code, out, errOut := pipe(t, in.data, append(sim, "-o", dir, "--duration", "20s")...); code != exitOK || !bytes.Contains(out, []byte("TTFT")) {
			t.Fatalf("sim - with a %s on stdin: exit %d\nstdout:\n%s\nstderr:\n%s", in.name, code, out, errOut)
		}
		if code, out, errOut := pipe(t, nil, "inspect", dir); code != exitOK {
			t.Errorf("inspect of sim -'s bundle (a %s on stdin): exit %d\nstdout:\n%s\nstderr:\n%s", in.name, code, out, errOut)
		}
	}
	if code, out, errOut := pipe(t, tr, "inspect", "-"); code != exitOK || !bytes.Contains(out, []byte("workload")) {
		t.Errorf("inspect -: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	path := filepath.Join(tmp, "trace", "records.jsonl")
	records, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := pipe(t, nil, "report", path, "--format", "json")
	code, got, errOut := pipe(t, records, "report", "-", "--format", "json")
	if code != exitOK || !bytes.Equal(got, want) {
		t.Errorf("report - --format json: exit %d, %d bytes, want those of report FILE (%d)\nstderr:\n%s", code, len(got), len(want), errOut)
	}
	code, html, errOut := pipe(t, records, "report", "-", "--html", "-")
	if code != exitOK || !bytes.HasPrefix(bytes.TrimSpace(html), []byte("<!DOCTYPE html>")) {
		t.Errorf("report - --html -: exit %d, want the HTML report on stdout\n%.300s\nstderr:\n%s", code, html, errOut)
	}
}
