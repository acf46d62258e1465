package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"surge/internal/selftest"
	"surge/trace"
)

func TestSelftestCommand(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "selftest.json")
	c := newSelftest()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&out)
	// In process: under go test there is no surge executable to start.
	c.SetArgs([]string{"--concurrency", "2,8", "--duration", "200ms", "--cache", path})
	if err := c.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"concurrency", "ceiling", "saved to " + path, "in-process zero-delay server"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	r, err := selftest.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if req, _ := r.Ceiling(); req <= 0 || len(r.Points) != 2 || !r.Current(versionString()) {
		t.Errorf("cached %+v: want two points, a positive ceiling, this build and machine", r)
	}
}

// TestSelftestServerProcess runs the built surge's selftest, whose
// zero-delay server runs in a second surge process.
func TestSelftestServerProcess(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(surgeBinary(t), "selftest", "--concurrency", "4", "--duration", "300ms", "--no-save").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"zero-delay server in a process of its own", "ceiling"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "instead") {
		t.Errorf("the server process did not start:\n%s", out)
	}
}

func TestSelftestRefusesBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--concurrency", "0"}, {"--duration", "0s"}} {
		c := newSelftest()
		c.SetOut(&bytes.Buffer{})
		c.SetArgs(append(args, "--no-save"))
		if err := c.ExecuteContext(t.Context()); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestCeilingWarning(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fabricated := selftest.Result{Version: versionString(), CPUs: runtime.NumCPU(), Tokens: 64, At: time.Now().UTC(),
		Points: []selftest.Point{{Concurrency: 64, RequestsPerS: 1_000, TokenEventsPerS: 64_000}}}
	current := filepath.Join(dir, "current.json")
	stale := filepath.Join(dir, "stale.json")
	old := fabricated
	old.Version = "surge v0.0.1"
	for p, r := range map[string]selftest.Result{current: fabricated, stale: old} {
		if err := selftest.Save(p, r); err != nil {
			t.Fatal(err)
		}
	}
	closed := func(n int) trace.Header {
		return trace.Header{Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: n}}}
	}
	tests := []struct {
		reason string
		path   string
		h      trace.Header
		warn   bool
	}{
		{"400 streams need 40,000 events/s, more than half of 64,000", current, closed(400), true},
		{"10 streams are well within", current, closed(10), false},
		{"a self-test of another build says nothing", stale, closed(400), false},
		{"no self-test, no warning", filepath.Join(dir, "none.json"), closed(400), false},
	}
	for _, tt := range tests {
		if got := ceilingWarning(tt.path, tt.h, nil); (got != "") != tt.warn {
			t.Errorf("%s: warning %q, want one: %v", tt.reason, got, tt.warn)
		}
	}
}

func TestRequestedLoad(t *testing.T) {
	t.Parallel()
	open := func(n int, everyUS int64, turns int) []*trace.Session {
		ss := make([]*trace.Session, n)
		for i := range ss {
			ss[i] = &trace.Session{Client: "o", AtUS: int64(i) * everyUS, Turns: make([]trace.Turn, turns)}
		}
		return ss
	}
	h := trace.Header{Clients: []trace.ClientInfo{{Name: "o"}, {Name: "a", Concurrency: 8}, {Name: "b", Concurrency: 4}}}
	burst := append(open(100, 10_000, 1), &trace.Session{Client: "o", AtUS: 5_000_000, Turns: make([]trace.Turn, 1)})
	tests := []struct {
		reason   string
		sessions []*trace.Session
		rate     float64
	}{
		{"100 req/s for 10 s", open(1000, 10_000, 1), 100},
		{"turns count at their session's start", open(1000, 10_000, 3), 300},
		{"100 in the first second, then one: the peak", burst, 100},
		{"closed-loop sessions have no rate", []*trace.Session{{Client: "a", Turns: make([]trace.Turn, 5)}}, 0},
		{"nothing", nil, 0},
	}
	for _, tt := range tests {
		rate, conc := requestedLoad(h, tt.sessions)
		if rate != tt.rate || conc != 12 {
			t.Errorf("%s: %v req/s, concurrency %d; want %v and 12 (8+4)", tt.reason, rate, conc, tt.rate)
		}
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {999.4, "999"}, {1000, "1,000"}, {1234567.8, "1,234,568"}, {-12345, "-12,345"},
	}
	for _, tt := range tests {
		if got := thousands(tt.v); got != tt.want {
			t.Errorf("thousands(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
