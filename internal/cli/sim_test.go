package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"the hardware must be named", []string{"sim", "x.yaml", "--gpu", "h100"}, "--model and --gpu"},
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
