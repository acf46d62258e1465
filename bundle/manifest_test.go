package bundle

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"surge/trace"
)

func TestManifestRoundTrip(t *testing.T) {
	t.Parallel()
	m := &Manifest{Tool: "surge test", Command: []string{"surge", "run", "x.yaml"}, WorkloadHash: "sha256:ab",
		Spec: &Spec{Path: "x.yaml", Given: "version: 1\n", Resolved: "version: 1\n"}, Target: "http://h:1",
		Server: &Server{Models: json.RawMessage(`{"data":[{"id":"m"}]}`), Model: "m"}, Host: ThisHost("6.1"),
		Start: time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC), End: time.Date(2026, 11, 30, 1, 1, 0, 0, time.UTC),
		Files:    map[string]File{"records.jsonl": {Bytes: 3, SHA256: "00"}},
		Datasets: map[string]*trace.Dataset{"c": {Path: "d.json", Format: "sharegpt", Hash: "sha256:cd", Fit: "keep"}}}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// The indented encoding re-indents the /v1/models answer: compare
	// the two manifests as JSON values.
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(m)
	var va, vb any
	json.Unmarshal(a, &va)
	json.Unmarshal(b, &vb)
	if !reflect.DeepEqual(va, vb) {
		t.Errorf("read back %s\nwant %s", a, b)
	}
	if _, err := Read(strings.NewReader(`{"surge_bundle": 9}`)); err == nil || !strings.Contains(err.Error(), "format 9") {
		t.Errorf("a future format: %v", err)
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	f, err := Digest(strings.NewReader("hello\n"))
	if err != nil {
		t.Fatal(err)
	}
	// sha256 of "hello\n", as sha256sum prints it.
	if f.Bytes != 6 || f.SHA256 != "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03" {
		t.Fatalf("digest %+v", f)
	}
	m := &Manifest{Files: map[string]File{"a": f}}
	if err := m.Verify("a", strings.NewReader("hello\n")); err != nil {
		t.Error(err)
	}
	if err := m.Verify("a", strings.NewReader("hellO\n")); err == nil {
		t.Error("a changed file verified")
	}
	if err := m.Verify("b", strings.NewReader("")); err == nil {
		t.Error("a file the manifest does not name verified")
	}
}

func TestProbe(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok/v1/models":
			w.Header().Set("Server", "uvicorn")
			w.Header().Set("X-Vllm-Version", "0.11.0")
			w.Header().Set("X-Request-Id", "abc")
			w.Write([]byte(`{"object":"list","data":[{"id":"meta-llama/Llama-3.1-8B-Instruct"},{"id":"other"}]}`))
		case "/garbage/v1/models":
			w.Write([]byte("<html>"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	s := Probe(ctx, srv.Client(), srv.URL+"/ok/")
	if s.Error != "" || s.Model != "meta-llama/Llama-3.1-8B-Instruct" || s.Headers["Server"] != "uvicorn" ||
		s.Headers["X-Vllm-Version"] != "0.11.0" || s.Headers["X-Request-Id"] != "" {
		t.Errorf("probe %+v", s)
	}
	if s := Probe(ctx, srv.Client(), srv.URL+"/none"); !strings.Contains(s.Error, "HTTP 404") || s.Models != nil {
		t.Errorf("no endpoint: %+v", s)
	}
	if s := Probe(ctx, srv.Client(), srv.URL+"/garbage"); !strings.Contains(s.Error, "not JSON") {
		t.Errorf("garbage: %+v", s)
	}
	if s := Probe(ctx, srv.Client(), "http://user:pw@127.0.0.1:1"); s.Error == "" || strings.Contains(s.Error, "pw") {
		t.Errorf("refused: %+v", s)
	}
}
