package cli

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"surge/metrics"
)

// TestFailOnInvalid runs against servers that make the measurement
// questionable (one that counts more tokens than it may, and a client held
// back by its concurrency cap) and one that does not: the measurement line
// is in every rendering, and --fail-on-invalid exits 4 only for the
// questionable ones.
func TestFailOnInvalid(t *testing.T) {
	t.Parallel()
	closed := `version: 1
seed: 3
requests: 30
clients:
  - name: c
    model: m
    concurrency: 2
    input: 50
    output: 8
`
	open := `version: 1
seed: 3
requests: 40
clients:
  - name: c
    model: m
    rate: 100/s
    input: 50
    output: 2
`
	tests := []struct {
		name   string
		spec   string
		server fakeServer
		flags  []string
		code   int
		reason string
	}{
		{"valid", closed, fakeServer{tokens: 8}, nil, exitOK, ""},
		{"server miscounts tokens", closed, fakeServer{tokens: 8, usageOff: 3}, nil, exitQuestionable, "more output tokens than max_tokens"},
		// A cap of one request in flight against 30 ms responses holds
		// back a schedule of one request every 10 ms: the lag grows to
		// seconds whatever the machine's load.
		{"saturated client", open, fakeServer{ttft: 30 * time.Millisecond, tokens: 2}, []string{"--max-concurrency", "1"}, exitQuestionable, "behind schedule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tt.server)
			defer srv.Close()
			tmp := t.TempDir()
			dir := filepath.Join(tmp, "run")
			args := append([]string{"run", writeSpec(t, tmp, "s.yaml", tt.spec), "--target", srv.URL, "-o", dir, "--fail-on-invalid", "--no-scrape"}, tt.flags...)
			code, out, errOut := run(t, args...)
			if tt.reason == "" && code == exitQuestionable && os.Getenv("SURGE_STRICT_TIMING") == "" {
				// On a loaded machine surge may really fall behind: the
				// verdict is then honest, and only quiet cores can
				// promise a valid one.
				t.Skipf("the client was slowed by the machine's load: %s", firstLine(errOut))
			}
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			want := "measurement: valid"
			if tt.reason != "" {
				want = "measurement: questionable — "
				if !strings.Contains(errOut, tt.reason) {
					t.Errorf("stderr does not say why (%q):\n%s", tt.reason, errOut)
				}
			}
			// The report wraps its lines: a reason may span two.
			if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, want) || !strings.Contains(flat, tt.reason) {
				t.Errorf("text report lacks %q and %q:\n%s", want, tt.reason, out)
			}
			html, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil || !strings.Contains(string(html), `id="measurement"`) || !strings.Contains(string(html), tt.reason) {
				t.Errorf("report.html lacks the measurement line (%v)", err)
			}
			var rep struct{ Measurement *metrics.Measurement }
			raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
			if err == nil {
				err = json.Unmarshal(raw, &rep)
			}
			if err != nil || rep.Measurement == nil || rep.Measurement.Valid() != (tt.reason == "") {
				t.Errorf("report.json measurement %+v (%v)", rep.Measurement, err)
			}
			if code, again, _ := run(t, "report", dir); code != exitOK || !strings.Contains(again, want) {
				t.Errorf("surge report exit %d lacks %q:\n%s", code, want, again)
			}
		})
	}
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestSweepFailOnInvalid: a sweep in virtual time (deterministic) whose
// points judge a p99 SLO on a few dozen requests is questionable at every
// point, and --fail-on-invalid exits 4 naming them; a p50 SLO that the
// points can judge leaves the low load valid, and the sweep exits 0 when
// no point is questionable.
func TestSweepFailOnInvalid(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "agree.yaml", agreeSpec)
	tests := []struct {
		name  string
		slo   string
		rates string
		code  int
	}{
		{"p99 on a few dozen requests", "ttft.p99<=2s", "4,8", exitQuestionable},
		{"p50 at light loads", "ttft.p50<=2s", "4,8", exitOK},
	}
	for _, tt := range tests {
		dir := filepath.Join(tmp, strings.ReplaceAll(tt.name, " ", "-"))
		code, out, errOut := run(t, "sweep", spec, "--sim", "--gpu", "h100", "--rates", tt.rates, "--min-requests", "0", "--slo", tt.slo, "--fail-on-invalid", "-o", dir)
		if code != tt.code {
			t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tt.name, code, tt.code, out, errOut)
		}
		if tt.code == exitQuestionable && !strings.Contains(errOut, "measurement questionable at 2 of 2 points") {
			t.Errorf("%s: stderr does not name the points:\n%s", tt.name, errOut)
		}
	}
}
