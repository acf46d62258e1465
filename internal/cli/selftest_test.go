package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"surge/internal/selftest"
)

func TestSelftestCommand(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "selftest.json")
	c := newSelftest()
	var out bytes.Buffer
	c.SetOut(&out)
	c.SetErr(&out)
	// In process: under go test there is no surge executable to start. A
	// second per point leaves a loaded machine time to start its workers.
	c.SetArgs([]string{"--concurrency", "2,8", "--duration", "1s", "--cache", path})
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
	out, err := exec.Command(surgeBinary(t), "selftest", "--concurrency", "4", "--duration", "1s", "--no-save").CombinedOutput()
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
