package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"surge/content"
	"surge/internal/parity"
	"surge/sim/server"
)

// startParityEngine serves the built-in engine (Llama-3.1-8B on one H100)
// with natural output lengths of median median tokens, and returns its URL.
func startParityEngine(t *testing.T, median int) string {
	t.Helper()
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := server.Start(context.Background(), server.Config{
		Hardware: llamaH100(t), Tokenizer: tok, OutputMedian: median})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}

// runParityCmd runs surge parity with args and returns its exit code,
// stdout and stderr: through Main once the root registers parity, until
// then through a root with parity added, mapping errors as Main does.
func runParityCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot(strings.NewReader(""), &out, &errOut)
	if c, _, err := root.Find([]string{"parity"}); err == nil && c.Name() == "parity" {
		return run(t, append([]string{"parity"}, args...)...)
	}
	root.AddCommand(newParity())
	root.SetArgs(append([]string{"parity"}, args...))
	err := root.ExecuteContext(context.Background())
	var usage usageError
	switch {
	case err == nil:
		return exitOK, out.String(), errOut.String()
	case errors.As(err, &usage):
		return exitUsage, out.String(), errOut.String() + err.Error()
	}
	return exitFailure, out.String(), errOut.String() + err.Error()
}

func TestParitySameEngines(t *testing.T) {
	t.Parallel()
	a, b := startParityEngine(t, 20), startParityEngine(t, 20)
	secret := strings.Replace(b, "http://", "http://alice:hunter2@", 1)
	code, out, errOut := runParityCmd(t, "--target", a, "--target", secret,
		"--prompts", "8", "--max-tokens", "200", "--fail-on-diff")
	if code != exitOK {
		t.Fatalf("exit %d\nstderr:\n%s\nstdout:\n%s", code, errOut, out)
	}
	if !strings.Contains(out, "verdict: same") || !strings.Contains(out, "exact 8/8") {
		t.Errorf("two engines of one config are not the same:\n%s", out)
	}
	if strings.Contains(out+errOut, "hunter2") || strings.Contains(out+errOut, "alice") {
		t.Errorf("credentials printed:\n%s%s", out, errOut)
	}
	// The built-in engine returns logprobs when asked, the same for one
	// configuration, so parity compares them and finds no difference.
	if strings.Contains(out, "logprobs asked for but not returned") || !strings.Contains(out, "mean |Δlogprob| 0.0000 over") {
		t.Errorf("the engines' logprobs not compared, or not equal:\n%s", out)
	}
}

func TestParityDoubledOutputDiffers(t *testing.T) {
	t.Parallel()
	a, b := startParityEngine(t, 20), startParityEngine(t, 40)
	code, out, errOut := runParityCmd(t, "--target", "base="+a, "--target", "long="+b,
		"--prompts", "8", "--max-tokens", "200", "--json", "--fail-on-diff")
	if code != exitFailure || !strings.Contains(errOut, "long differs from base") {
		t.Fatalf("exit %d, stderr %q; want 1 naming the differing candidate\nstdout:\n%s", code, errOut, out)
	}
	var res parity.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not a JSON result: %v\n%s", err, out)
	}
	c := res.Candidates[0]
	// Output length is round(median·e^{σZ}) with Z fixed by the prompt, so
	// doubling the median doubles each length, up to rounding and the cap.
	if c.Verdict != parity.Differs || c.Summary.TokenRatio < 1.8 || c.Summary.TokenRatio > 2.2 {
		t.Errorf("verdict %s, token ratio %.2f; want differs at about 2", c.Verdict, c.Summary.TokenRatio)
	}
	if !strings.Contains(c.Explanation, "× the output tokens") {
		t.Errorf("explanation %q does not give the token ratio", c.Explanation)
	}
}

func TestParityUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"one target has nothing to compare with", []string{"--target", "http://127.0.0.1:1"}, "at least twice"},
		{"no target", nil, "at least twice"},
		{"not a URL, printed without its credentials", []string{"--target", "http://127.0.0.1:1", "--target", "ftp://u:pw@h"}, "want a URL"},
		{"same host twice needs names", []string{"--target", "http://127.0.0.1:1", "--target", "http://127.0.0.1:1/"}, "given twice"},
		{"zero prompts", []string{"--target", "a=http://127.0.0.1:1", "--target", "b=http://127.0.0.1:1", "--prompts", "0"}, "at least 1"},
	}
	for _, tt := range tests {
		code, out, errOut := runParityCmd(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "pw") {
			t.Errorf("%s: exit %d, stderr %q, stdout %q; want usage error saying %q", tt.reason, code, errOut, out, tt.want)
		}
	}
}

// TestParityBothRefuse: two servers that refuse every prompt alike are
// "both failed", not a difference, so --fail-on-diff exits 0; the answer's
// error is shown.
func TestParityBothRefuse(t *testing.T) {
	t.Parallel()
	refuse := func() string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/models" {
				fmt.Fprint(w, `{"object":"list","data":[{"id":"m","max_model_len":4096}]}`)
				return
			}
			http.Error(w, `{"error":{"message":"unsupported field"}}`, http.StatusBadRequest)
		}))
		t.Cleanup(s.Close)
		return s.URL
	}
	code, out, errOut := runParityCmd(t, "--target", "a="+refuse(), "--target", "b="+refuse(),
		"--prompts", "4", "--fail-on-diff")
	if code != exitOK {
		t.Fatalf("exit %d\nstderr:\n%s\nstdout:\n%s", code, errOut, out)
	}
	for _, want := range []string{"verdict: both failed", "unsupported field", "both failed 4", "context 4096"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
