package harness

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"surge/bundle"
	"surge/client"
)

// syncLog is a log the run's goroutines may write at once.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSideRequestsDoNotHoldTheFirstSend has a target whose /v1/models
// and /metrics accept and never answer until the first inference request
// arrives: that request comes while both are still waiting (the probe
// and the first scrape are beside the load, never before it), and the
// manifest then says what the probe got. The order is checked, not a
// time, so a loaded machine cannot fail it.
func TestSideRequestsDoNotHoldTheFirstSend(t *testing.T) {
	t.Parallel()
	first := make(chan struct{})
	var once sync.Once
	var waitingAtFirst atomic.Int32 // side requests in flight when the first send came
	var inFlight atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models", "/metrics":
			inFlight.Add(1)
			defer inFlight.Add(-1)
			select {
			case <-first:
			case <-r.Context().Done():
			case <-time.After(time.Minute):
			}
			http.NotFound(w, r)
		default:
			once.Do(func() {
				// The scrape may not have reached the server yet: give it
				// time, which only a run that held the first send back
				// would run out of.
				for range 1000 {
					if inFlight.Load() == 2 {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
				waitingAtFirst.Store(inFlight.Load())
				close(first)
			})
			http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), Config{Workload: failing(t, 2), Dir: dir, Target: srv.URL, NoPreflight: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.All.Sent != 2 {
		t.Fatalf("sent %d, want 2", res.Summary.All.Sent)
	}
	if n := waitingAtFirst.Load(); n != 2 {
		t.Errorf("%d side requests were waiting when the first request came, want the probe's and the scrape's", n)
	}
	m := readManifest(t, dir)
	if m.Server == nil || !strings.Contains(m.Server.Error, "404") {
		t.Errorf("manifest server %+v: want the probe's 404 once the first request let it go", m.Server)
	}
}

// TestSideRequestsCarryTheOptions checks that the probe and the scrape
// have the inference requests' options: --insecure against a
// self-signed server, the extra headers, the credentials; and that a
// probe redirected to another port of the same host is not followed.
func TestSideRequestsCarryTheOptions(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	var mu sync.Mutex
	seen := map[string]http.Header{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path] = r.Header.Clone()
		mu.Unlock()
		switch r.URL.Path {
		case "/v1/models":
			http.Redirect(w, r, other.URL+"/v1/models", http.StatusTemporaryRedirect)
		case "/metrics":
			fmt.Fprintln(w, "vllm:num_requests_running 0")
		default:
			http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "run")
	log := &syncLog{}
	cc := client.Config{Insecure: true, APIKey: "sk-side", Header: http.Header{"X-Team": {"t1"}}}
	res, err := Run(context.Background(), Config{Workload: failing(t, 1), Dir: dir, Target: srv.URL, NoPreflight: true, Client: cc, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, path := range []string{"/v1/models", "/metrics", "/v1/chat/completions"} {
		h, ok := seen[path]
		if !ok || h.Get("Authorization") != "Bearer sk-side" || h.Get("X-Team") != "t1" {
			t.Errorf("%s: got %v, want it with the key and the header over TLS without verification", path, h)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the redirect to another port was followed %d times", n)
	}
	m := readManifest(t, dir)
	if m.Server == nil || !strings.Contains(m.Server.Error, "not following the redirect") {
		t.Errorf("manifest server %+v: want the redirect refused", m.Server)
	}
	if res.Summary.All.Sent != 1 || strings.Contains(log.String(), "scrapes of") {
		t.Errorf("sent %d; log:\n%s", res.Summary.All.Sent, log)
	}
}

// TestProbeAnswerRedacted has a /v1/models that echoes the
// Authorization header in its answer and headers: the manifest keeps the
// answer, valid JSON, without the key.
func TestProbeAnswerRedacted(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			w.Header().Set("X-Version", r.Header.Get("Authorization"))
			fmt.Fprintf(w, `{"data":[{"id":"m","owner":%q}]}`, r.Header.Get("Authorization"))
			return
		}
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "run")
	_, err := Run(context.Background(), Config{Workload: failing(t, 1), Dir: dir, Target: srv.URL, NoPreflight: true,
		Client: client.Config{APIKey: "sk-echoed-3"}, Scrape: Scrape{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, dir)
	if strings.Contains(string(data), "sk-echoed-3") || m.Server == nil || m.Server.Model != "m" || !strings.Contains(string(m.Server.Models), "[redacted]") {
		t.Errorf("manifest:\n%s", data)
	}
}

// TestScrapeWarningsHideCredentials has a target with a password in its
// URL and no metrics: the scrape sends the URL's credentials, and the
// warning names the metrics URL without them.
func TestScrapeWarningsHideCredentials(t *testing.T) {
	t.Parallel()
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			auth.Store(r.Header.Get("Authorization"))
			http.NotFound(w, r)
			return
		}
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	target := strings.Replace(srv.URL, "://", "://alice:pw-s3cret@", 1)
	log := &syncLog{}
	_, err := Run(context.Background(), Config{Workload: failing(t, 1), Dir: filepath.Join(t.TempDir(), "run"), Target: target, NoPreflight: true, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:pw-s3cret"))
	if got, _ := auth.Load().(string); got != basic {
		t.Errorf("the scrape sent Authorization %q, want the URL's credentials %q", got, basic)
	}
	out := log.String()
	// The run may end before its first scrape: the warning is then of a
	// failed scrape rather than of no endpoint, naming the URL either way.
	if !strings.Contains(out, " "+srv.URL+"/metrics") || strings.Contains(out, "pw-s3cret") || strings.Contains(out, "alice") {
		t.Errorf("log:\n%s", out)
	}
}

// TestReportPrintedWhenFilesFail fills the disk under report.json (a
// link to /dev/full): Run still gives the Result with the text report,
// with the error, and writes the other files.
func TestReportPrintedWhenFilesFail(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", filepath.Join(dir, "report.json")); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Workload: failing(t, 1), Dir: dir, Target: srv.URL, NoPreflight: true, Scrape: Scrape{Off: true}})
	if err == nil || !strings.Contains(err.Error(), "report.json") {
		t.Errorf("error %v: want report.json's", err)
	}
	if res == nil || !strings.Contains(res.Report, "requests") {
		t.Fatalf("result %+v: want the text report", res)
	}
	for _, name := range []string{"report.txt", "report.html", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// readManifest reads DIR/manifest.json.
func readManifest(t *testing.T, dir string) *bundle.Manifest {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := bundle.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
