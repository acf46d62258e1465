package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"surge/trace"
)

// flushMargin is how long before a kill a request must have completed to
// be certain to be on disk: records are flushed every 100 ms, and the
// client needs a moment to read the end of a stream the server has sent.
const flushMargin = 200 * time.Millisecond

// TestKillKeepsRecords builds surge, starts a long run, kills it with
// SIGKILL once it has recorded a few successes, and checks that every
// request the server finished at least 200 ms before the kill is in the
// records file, and that surge report reads the file, even when its last
// line was cut mid-write.
func TestKillKeepsRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it for a few seconds")
	}
	t.Parallel()
	tmp := t.TempDir()
	bin := surgeBinary(t)
	srv := &completions{next: fakeServer{ttft: 20 * time.Millisecond, itl: 5 * time.Millisecond, tokens: 5}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	// Every request asks for its own max_tokens (mostly distinct), which
	// the records keep as output_tokens: the key matching the server's
	// completions to records.
	spec := writeSpec(t, tmp, "kill.yaml", "version: 1\nduration: 10m\nclients:\n  - {name: c, model: m, rate: 40/s, input: 20, output: {dist: uniform, min: 100, max: 100000}}\n")
	dir := filepath.Join(tmp, "run")
	cmd := exec.Command(bin, "run", spec, "--target", hs.URL, "-o", dir, "--no-preflight") // the preflight's request has no record
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	path := filepath.Join(dir, "records.jsonl")
	waitForSuccess(t, path, done, 60*time.Second)
	time.Sleep(time.Second) // let many more requests complete, and some be in flight
	killed := time.Now()
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	before := srv.before(killed.Add(-flushMargin))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := trace.ReadRecords(bytes.NewReader(data)) // a cut last line is expected
	if rs == nil || rs.End != nil {
		t.Fatalf("records file unreadable or with an end line after SIGKILL:\n%s\nstderr:\n%s", data, stderr.String())
	}
	have := map[int]int{}
	for _, r := range rs.Records {
		if r.OK() {
			have[r.OutputTokens]++
		}
	}
	missing := 0
	for maxTokens, n := range before {
		if have[maxTokens] < n {
			missing += n - have[maxTokens]
		}
	}
	if len(before) == 0 || missing > 0 {
		t.Errorf("%d of the requests completed %v before the kill are not in the records file (%d records)", missing, flushMargin, len(rs.Records))
	}
	checkReport(t, dir, path, data)
}

// checkReport runs surge report on the killed run's records, then on a
// copy whose last line is cut in the middle.
func checkReport(t *testing.T, dir, path string, data []byte) {
	t.Helper()
	if code, out, errOut := run(t, "report", path); code != 0 || !strings.Contains(out, "INTERRUPTED") {
		t.Errorf("report of the killed run: exit %d, want 0 and the run marked interrupted\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	lines := bytes.SplitAfter(bytes.TrimRight(data, "\n"), []byte("\n"))
	whole := bytes.Join(lines[:len(lines)-1], nil)
	last := lines[len(lines)-1]
	cut := filepath.Join(dir, "cut.jsonl")
	if err := os.WriteFile(cut, append(whole, last[:len(last)/2]...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, "report", cut); code != 0 || !strings.Contains(out, "INTERRUPTED") {
		t.Errorf("report of a file cut mid-line: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// completions wraps a handler and notes when each request it answered in
// full finished, by the max_tokens the request asked for.
type completions struct {
	next http.Handler

	mu   sync.Mutex // guards done
	done []completion
}

// completion is one request served to its end.
type completion struct {
	maxTokens int
	at        time.Time
}

func (c *completions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		MaxTokens int `json:"max_tokens"`
	}
	json.Unmarshal(body, &req)
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := &doneWriter{ResponseWriter: w}
	c.next.ServeHTTP(rec, r)
	if rec.sawDone && r.Context().Err() == nil {
		c.mu.Lock()
		c.done = append(c.done, completion{req.MaxTokens, time.Now()})
		c.mu.Unlock()
	}
}

// before counts the requests served in full before t, by max_tokens.
func (c *completions) before(t time.Time) map[int]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[int]int{}
	for _, d := range c.done {
		if d.at.Before(t) {
			m[d.maxTokens]++
		}
	}
	return m
}

// doneWriter notes whether the stream's [DONE] was written and flushed.
type doneWriter struct {
	http.ResponseWriter
	sawDone bool
}

func (w *doneWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if err == nil && bytes.Contains(b, []byte("[DONE]")) {
		w.sawDone = true
	}
	return n, err
}

// Flush implements http.Flusher.
func (w *doneWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }
