package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/internal/testbin"
	"surge/metrics"
	"surge/trace"
)

func TestSimChatPrintsReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := run(t, "sim", "../../examples/chat.yaml", "--model", "llama-3.1-8b", "--gpu", "h100", "--duration", "30s", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", out, errOut)
	for _, want := range []string{"TTFT", "sim://Llama-3.1-8B@H100-SXMx1"} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", want, out, errOut)
		}
	}
	rs := readRun(t, dir)
	if rs.Header.Target != "sim://Llama-3.1-8B@H100-SXMx1" || rs.End == nil || len(rs.Records) < 60 {
		t.Errorf("records: target %q, end %v, %d records", rs.Header.Target, rs.End, len(rs.Records))
	}
	for _, name := range []string{"report.txt", "report.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

func TestSimUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"the hardware must be named", []string{"sim", "x.yaml", "--gpu", "h100"}, "--engine-model and --gpu"},
		{"an unknown model lists the catalog", []string{"sim", "x.yaml", "--model", "gpt-9", "--gpu", "h100"}, "Llama-3.1-8B"},
		{"an unknown router is refused", []string{"sim", "x.yaml", "--model", "llama-3.1-8b", "--gpu", "h100", "--router", "random"}, "--router"},
		{"replicas are counted from one", []string{"sim", "x.yaml", "--model", "llama-3.1-8b", "--gpu", "h100", "--replicas", "0"}, "--replicas 0"},
	}
	for _, tt := range tests {
		code, _, errOut := run(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tt.reason, code, errOut, exitUsage, tt.want)
		}
	}
}

// TestSimInterruptRecordsRequestsInFlight interrupts surge sim mid-run.
// It must exit 130 with a record for every request sent, those in flight
// cancelled, an end line marked interrupted, and reports that count them.
func TestSimInterruptRecordsRequestsInFlight(t *testing.T) {
	t.Parallel()
	path := repeatTrace(t, 3000, 50_000, func(i int) string {
		return strings.Repeat(fmt.Sprintf("question %d about the weather. ", i), 200)
	})
	dir := filepath.Join(t.TempDir(), "sim")
	ctx := testbin.NewCountdown(context.Background(), 1) // the simulation's second check of its context
	var out, errOut bytes.Buffer
	code := Main(ctx, []string{"sim", path, "--model", "llama-3.1-8b", "--gpu", "h100", "-o", dir}, strings.NewReader(""), &out, &errOut)
	if code != exitInterrupted || !strings.Contains(errOut.String(), "interrupted: simulated") {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitInterrupted, out.String(), errOut.String())
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	rs := readRun(t, dir)
	if rs.End == nil || !rs.End.Interrupted || rs.End.Sent >= rs.End.Scheduled || len(rs.Records) != rs.End.Sent {
		t.Fatalf("end %+v, %d records: want an interrupted run with a record per request sent", rs.End, len(rs.Records))
	}
	cancelled := 0
	for _, r := range rs.Records {
		if r.ErrorClass == trace.ErrCancelled {
			cancelled++
		}
	}
	var sum metrics.Summary
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err == nil {
		err = json.Unmarshal(b, &sum)
	}
	switch {
	case err != nil:
		t.Fatal(err)
	case cancelled == 0 || sum.All.OK == 0:
		t.Errorf("%d cancelled, %d ok of %d records: want both", cancelled, sum.All.OK, len(rs.Records))
	case !sum.Interrupted || sum.All.Errors.ByClass[trace.ErrCancelled] != cancelled:
		t.Errorf("report.json: interrupted %v, errors %+v; want %d cancelled", sum.Interrupted, sum.All.Errors, cancelled)
	case !strings.Contains(out.String(), "INTERRUPTED") || !strings.Contains(out.String(), "cancelled"):
		t.Errorf("report does not show the interrupt and the cancelled requests:\n%s", out.String())
	}
}
