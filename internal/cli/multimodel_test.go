package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The two clients of testdata/two-models.yaml and their models.
const (
	qwenModel  = "Qwen/Qwen3-8B" // the chat client's, known to the catalog
	otherModel = "my-finetune"   // the code client's, unknown to it
)

// modelCounter counts the generation requests (POSTs) of each model a
// fakeServer answers; the GET /v1/models a run makes for its bundle's
// manifest is not counted.
type modelCounter struct {
	next http.Handler
	mu   sync.Mutex // guards got
	got  map[string]int
}

func (s *modelCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Model string `json:"model"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	s.got[req.Model]++
	s.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.next.ServeHTTP(w, r)
}

// counts returns a copy of the requests counted by model.
func (s *modelCounter) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.got)
}

// startCounter serves a counting fakeServer for the test's duration.
func startCounter(t *testing.T) (*modelCounter, string) {
	t.Helper()
	s := &modelCounter{next: fakeServer{tokens: 4}, got: map[string]int{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// TestRunRoutesModels runs a two-model spec against two test servers with
// --target in its several forms, and checks from both sides that each
// request went to its model's server: what each server counted equals
// what the records say was sent there.
func TestRunRoutesModels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		target func(a, b string) string // --target from the servers' URLs
		args   []string
		want   map[string]int // model → server (0: a, 1: b) its requests must reach
		header func(a, b string) string
	}{
		{"by model", func(a, b string) string { return qwenModel + "=" + a + "," + otherModel + "=" + b }, nil,
			map[string]int{qwenModel: 0, otherModel: 1},
			func(a, b string) string { return qwenModel + "=" + a + "," + otherModel + "=" + b }},
		{"by client with credentials and a default", func(a, b string) string {
			return "code=" + strings.Replace(a, "http://", "http://user:secret@", 1) + ",*=" + b
		}, nil, map[string]int{otherModel: 0, qwenModel: 1},
			func(a, b string) string { return qwenModel + "=" + b + "," + otherModel + "=" + a }},
		{"--model maps everything to one model", func(a, b string) string { return "big=" + b + ",*=" + a }, []string{"--model", "big"},
			map[string]int{"big": 1}, func(a, b string) string { return "big=" + b }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var srv [2]*modelCounter
			var urls [2]string
			srv[0], urls[0] = startCounter(t)
			srv[1], urls[1] = startCounter(t)
			dir := filepath.Join(t.TempDir(), "run")
			args := append([]string{"run", "testdata/two-models.yaml", "--target", tt.target(urls[0], urls[1]), "-o", dir, "--no-preflight"}, tt.args...)
			code, out, e := run(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d\nstderr:\n%s\nstdout:\n%s", code, e, out)
			}
			if strings.Contains(out+e, "secret") {
				t.Errorf("the password was printed:\n%s\n%s", out, e)
			}
			rs := readRun(t, dir)
			if want := tt.header(urls[0], urls[1]); rs.Header.Target != want {
				t.Errorf("records header target %q, want %q", rs.Header.Target, want)
			}
			if len(rs.Records) != 16 || rs.End == nil || rs.End.Sent != 16 {
				t.Fatalf("%d records, end %+v; want 16 and a clean end", len(rs.Records), rs.End)
			}
			wantCounts := [2]map[string]int{{}, {}}
			for _, r := range rs.Records {
				i, ok := tt.want[r.Model]
				if !r.OK() || !ok {
					t.Fatalf("record %+v: want a success of a model in %v", r, tt.want)
				}
				wantCounts[i][r.Model]++
			}
			for i := range srv {
				if got := srv[i].counts(); !maps.Equal(got, wantCounts[i]) {
					t.Errorf("server %d got %v, want %v", i, got, wantCounts[i])
				}
			}
		})
	}
}

// TestRunBuiltinEngines runs the two-model spec without --target: one
// built-in engine per model, each serving its model's name (an engine
// refuses any other name with 404, so every success went to the right
// one), each simulating --engine-model. Without it, the model the catalog
// does not know is a usage error before anything runs.
func TestRunBuiltinEngines(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	code, _, e := run(t, "run", "testdata/two-models.yaml", "-o", dir)
	if code != exitUsage || !strings.Contains(e, `unknown model "my-finetune" (known: `) || !strings.Contains(e, "--engine-model") {
		t.Errorf("without --engine-model: exit %d, stderr %s; want a usage error naming the model, the catalog and --engine-model", code, e)
	}
	code, out, e := run(t, "run", "testdata/two-models.yaml", "-o", dir, "--max-num-seqs", "8", "--engine-model", "qwen3-8b")
	if code != exitOK {
		t.Fatalf("exit %d\nstderr:\n%s\nstdout:\n%s", code, e, out)
	}
	for _, want := range []string{
		`driving the built-in engine for "Qwen/Qwen3-8B", Qwen3-8B on 1×H100-SXM, at http://127.0.0.1:`,
		`driving the built-in engine for "my-finetune", Qwen3-8B on 1×H100-SXM, at http://127.0.0.1:`,
	} {
		if !strings.Contains(e, want) {
			t.Errorf("stderr lacks %q:\n%s", want, e)
		}
	}
	rs := readRun(t, dir)
	if h := rs.Header.Target; !strings.HasPrefix(h, qwenModel+"=http://127.0.0.1:") || !strings.Contains(h, ","+otherModel+"=http://127.0.0.1:") {
		t.Errorf("records header target %q, want both engines by model", h)
	}
	byModel := map[string]int{}
	for _, r := range rs.Records {
		if !r.OK() || r.ServerInputTokens != r.ClientInputTokens {
			t.Fatalf("record %+v", r)
		}
		byModel[r.Model]++
	}
	if len(rs.Records) != 16 || byModel[qwenModel] == 0 || byModel[otherModel] == 0 {
		t.Errorf("%d records by model %v; want 16 of both models", len(rs.Records), byModel)
	}
}

// TestRunTargetErrors: a --target that does not fit the workload is a
// usage error naming every problem, before any request is sent.
func TestRunTargetErrors(t *testing.T) {
	t.Parallel()
	srv, u := startCounter(t)
	tests := []struct {
		target string
		want   []string
		reason string
	}{
		{"chat=" + u, []string{`no server for model "my-finetune"`}, "a model left without a server"},
		{"chatt=" + u + ",code=" + u, []string{`"chatt" is neither a model nor a client`, `no server for model "Qwen/Qwen3-8B"`},
			"a misspelt client, and the model it leaves over"},
		{"chat=" + u + ",chat=" + u, []string{"chat is given twice"}, "a duplicate key"},
		{"chat=http://user:secret@127.0.0.1:1,code=localhost:1", []string{"--target code=localhost:1: want a URL"}, "a bad URL among good ones"},
	}
	for _, tt := range tests {
		code, _, e := run(t, "run", "testdata/two-models.yaml", "--target", tt.target, "-o", filepath.Join(t.TempDir(), "run"))
		if code != exitUsage || strings.Contains(e, "secret") {
			t.Errorf("%s: exit %d, stderr %q; want a usage error without the password", tt.reason, code, e)
		}
		for _, w := range tt.want {
			if !strings.Contains(e, w) {
				t.Errorf("%s: stderr %q lacks %q", tt.reason, e, w)
			}
		}
	}
	if got := srv.counts(); len(got) != 0 {
		t.Errorf("server got %v; a refused run must send nothing", got)
	}
}
