package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFailOnSLO runs the chat example through surge sim with objectives
// from the command line: a loose one passes at 99% confidence and exits
// 0; a tight one fails, and --fail-on-slo turns that into exit 1 naming
// it; too few requests for a p99 verdict are "not enough samples".
func TestFailOnSLO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		name, slo, duration string
		code                int
		out, err            string
	}{
		{"loose", "tpot.p99<=1s", "200s", exitOK, "PASS  tpot p99", ""},
		{"tight", "ttft.p50<=1ms", "200s", exitFailure, "FAIL  ttft p50", "SLO not met: ttft p50: fail"},
		{"short", "tpot.p99<=1s", "40s", exitFailure, "SHORT  tpot p99", "not enough samples"},
	} {
		code, out, e := run(t, "sim", "../../examples/chat.yaml", "--model", "llama-3.1-8b", "--gpu", "h100",
			"--duration", tt.duration, "--slo", tt.slo, "--fail-on-slo", "-o", filepath.Join(dir, tt.name))
		if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(e, tt.err) {
			t.Errorf("%s: exit %d (want %d)\n%s\n%s", tt.name, code, tt.code, out, e)
		}
	}
	if code, _, e := run(t, "sim", "../../examples/chat.yaml", "--model", "llama-3.1-8b", "--gpu", "h100", "--slo", "ttft.p99<2s"); code != exitUsage || !strings.Contains(e, "--slo") {
		t.Errorf("a malformed --slo: exit %d, %s", code, e)
	}
}
