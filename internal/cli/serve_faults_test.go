package cli

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"surge/harness"
	"surge/sim/server"
)

func TestServeFaultFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		faults string
		seed   uint64
		want   string // an error substring; "" for success
		reason string
	}{
		{"", 1, "", "no faults"},
		{"status=429:0.1,restart=5s@30s", 9, "", "rules, a restart and a seed"},
		{"stauts=429", 1, `--faults: faults item 1 "stauts=429": unknown fault "stauts"`, "the item and the fix are named"},
		{"status=429@20s-10s", 1, "ends before it starts", "a reversed window"},
	} {
		f := serveFlags{hw: harness.Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1}, faults: tc.faults, faultSeed: tc.seed}
		f.engine.register(pflag.NewFlagSet("serve", pflag.ContinueOnError), "") // vLLM's defaults
		cfg, err := f.config()
		if tc.want != "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: --faults %q: error %v, want %q", tc.reason, tc.faults, err, tc.want)
			}
			continue
		}
		want, _ := server.ParseFaults(tc.faults)
		if err != nil || cfg.Faults.String() != want.String() || cfg.FaultSeed != tc.seed {
			t.Errorf("%s: --faults %q: config faults %q seed %d, %v", tc.reason, tc.faults, cfg.Faults, cfg.FaultSeed, err)
		}
	}
}

func TestServeRejectsBadFaults(t *testing.T) {
	t.Parallel()
	code, _, stderr := run(t, "serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--faults", "reset=2s")
	if code != exitUsage || !strings.Contains(stderr, "reset takes no argument") {
		t.Errorf("exit %d, stderr %q; want a usage error naming the fix", code, stderr)
	}
}

// TestServeInjectsFaults runs `surge serve --faults` and checks that an
// injected 429 reaches a client with its Retry-After and is logged.
func TestServeInjectsFaults(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--addr", "127.0.0.1:0", "--served-model-name", "m",
			"--faults", "status=429,retry-after=3s", "--fault-seed", "5"}, strings.NewReader(""), &stdout, &stderr)
	}()
	defer func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	}()
	addr := regexp.MustCompile(`listening on (http://\S+)`)
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s %s", stdout.String(), stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "injecting faults status=429,retry-after=3s (seed 5)") {
		t.Errorf("stdout %q does not announce the faults", stdout.String())
	}
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":2}`
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Errorf("status %d, Retry-After %q; want 429, 3", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if !strings.Contains(stderr.String(), "kind=status_429") {
		t.Errorf("stderr %q lacks the fault's log line", stderr.String())
	}
}

// syncBuffer is a bytes.Buffer written by the server while a test reads it.
type syncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
