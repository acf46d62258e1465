package cli

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// echoSpec is a few small requests.
const echoSpec = `version: 1
seed: 4
requests: 4
clients:
  - name: web
    model: m
    rate: 40/s
    input: 20
    output: 4
`

// echoServer answers every request but /metrics (it has none) with a
// 401 whose error echoes the Authorization header it got, plainly and
// JSON-escaped.
func echoServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			http.NotFound(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		msg, _ := json.Marshal("bad credentials: " + auth)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":%s,"echo":"%s"}}`, msg, auth)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunLeaksNoCredential runs surge against a server that echoes the
// Authorization header in its errors and has no /metrics, with the
// password in --target's URL, with and without an API key from the
// environment: the password, the base64 of user:password and the key
// appear nowhere in stdout, stderr or any file of the bundle. It sets an
// environment variable, so it does not run in parallel.
func TestRunLeaksNoCredential(t *testing.T) {
	const key = "sk-bearer-5e7f1a"
	t.Setenv("SURGE_TEST_LEAK_KEY", key)
	srv := echoServer(t)
	target := strings.Replace(srv.URL, "://", "://user:secret@", 1)
	never := []string{"secret", base64.StdEncoding.EncodeToString([]byte("user:secret")), key}
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "echo.yaml", echoSpec)
	for _, withKey := range []bool{false, true} {
		dir := filepath.Join(tmp, fmt.Sprintf("run-key-%v", withKey))
		args := []string{"run", spec, "--target", target, "-o", dir, "--no-preflight"}
		if withKey {
			args = append(args, "--api-key-env", "SURGE_TEST_LEAK_KEY")
		}
		code, out, errOut := run(t, args...)
		if code != exitFailure || !strings.Contains(out, "401") || !strings.Contains(errOut, srv.URL+"/metrics") {
			t.Fatalf("key %v: exit %d, want a run whose requests all failed with 401\nstdout:\n%s\nstderr:\n%s", withKey, code, out, errOut)
		}
		texts := map[string]string{"stdout": out, "stderr": errOut}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			texts[e.Name()] = string(data)
		}
		if _, ok := texts["records.jsonl"]; !ok {
			t.Fatalf("key %v: no records in %s", withKey, dir)
		}
		for name, text := range texts {
			for _, s := range never {
				if strings.Contains(text, s) {
					t.Errorf("key %v: %s holds %q", withKey, name, s)
				}
			}
		}
		if !strings.Contains(texts["records.jsonl"], "[redacted]") {
			t.Errorf("key %v: the records have no echo redacted, so the server echoed nothing", withKey)
		}
	}
	// The preflight's failure quotes the server's answer, echo and all.
	code, out, errOut := run(t, "run", spec, "--target", target, "--api-key-env", "SURGE_TEST_LEAK_KEY", "-o", filepath.Join(tmp, "pre"))
	for _, s := range never {
		if code != exitUnreachable || !strings.Contains(errOut, "401") || strings.Contains(out+errOut, s) {
			t.Errorf("preflight: exit %d, want 3 with the 401 and without %q:\n%s%s", code, s, out, errOut)
		}
	}
}

// TestRunPrintsTheReportWhenFilesFail fills the disk under report.json
// (a link to /dev/full): the text report is still printed on stdout,
// and the exit status and stderr say what could not be written.
func TestRunPrintsTheReportWhenFilesFail(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	srv := echoServer(t)
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", filepath.Join(dir, "report.json")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "run", writeSpec(t, tmp, "echo.yaml", echoSpec), "--target", srv.URL, "--no-scrape", "--no-preflight", "-o", dir)
	if code != exitFailure || !strings.Contains(out, "requests") || !strings.Contains(errOut, "report.json") {
		t.Errorf("exit %d, want 1 with the report on stdout and report.json's error on stderr\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestRunRefusesAHugeSalt: a 1 MB --salt is refused before the run,
// in a message that quotes only its start.
func TestRunRefusesAHugeSalt(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	salt := strings.Repeat("n", 1<<20)
	code, _, errOut := run(t, "run", writeSpec(t, tmp, "echo.yaml", echoSpec), "--salt", salt, "-o", filepath.Join(tmp, "run"))
	if code != exitUsage || !strings.Contains(errOut, "--salt") || len(errOut) > 2000 {
		t.Errorf("exit %d, stderr of %d bytes: %.300s", code, len(errOut), errOut)
	}
}

// TestRunHeaderFlag checks --header: a malformed one is refused without
// quoting it, and a credential header's value is redacted in the
// manifest's command line.
func TestRunHeaderFlag(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "echo.yaml", echoSpec)
	if code, _, errOut := run(t, "run", spec, "--target", "http://127.0.0.1:1", "--header", "gw-key-77"); code != exitUsage || strings.Contains(errOut, "gw-key-77") {
		t.Errorf("malformed --header: exit %d, stderr %q", code, errOut)
	}
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			mu.Lock()
			got = append(got, r.Header.Get("X-Api-Key"))
			mu.Unlock()
		}
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	dir := filepath.Join(tmp, "run")
	run(t, "run", spec, "--target", srv.URL, "--header", "X-API-Key: gw-key-77", "--no-scrape", "--no-preflight", "-o", dir)
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || got[0] != "gw-key-77" {
		t.Errorf("the server saw X-Api-Key %q", got)
	}
	m, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(m), "gw-key-77") || !strings.Contains(string(m), "X-API-Key: (redacted)") {
		t.Errorf("manifest:\n%s", m)
	}
}

// TestErrorsAreClipped: a 1 MB value in a flag whose error quotes it
// makes a short message.
func TestErrorsAreClipped(t *testing.T) {
	t.Parallel()
	code, _, errOut := run(t, "run", "x.yaml", "--target", "a="+strings.Repeat("h", 1<<20))
	if code != exitUsage || len(errOut) > 3000 || !strings.Contains(errOut, "bytes)") {
		t.Errorf("exit %d, stderr of %d bytes: %.300s", code, len(errOut), errOut)
	}
}

// TestRunTLSFailureSaysHowToFixIt runs against a server whose
// certificate is not trusted: what surge prints names --insecure, and
// with it the requests reach the server.
func TestRunTLSFailureSaysHowToFixIt(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"reached"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "echo.yaml", echoSpec)
	_, out, errOut := run(t, "run", spec, "--target", srv.URL, "-o", filepath.Join(tmp, "a"))
	if !strings.Contains(out+errOut, "--insecure") {
		t.Errorf("nothing printed names --insecure:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	_, out, errOut = run(t, "run", spec, "--target", srv.URL, "--insecure", "--no-preflight", "-o", filepath.Join(tmp, "b"))
	if !strings.Contains(out, "reached") {
		t.Errorf("--insecure: the requests did not reach the server:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
}
