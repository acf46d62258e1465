package harness

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// TestRequestOptionsReachTheServer runs a spec whose client has headers
// (a session affinity) and an extra body, with --extra-body over it,
// against a server that keeps what it is sent: each request carries the
// workload's members, the run's replacing the client's of the same name,
// and the headers with each session's id.
func TestRequestOptionsReachTheServer(t *testing.T) {
	t.Parallel()
	const specText = `version: 1
name: options
seed: 1
tokenizer: o200k_base
requests: 3
salt: none
clients:
  - name: c
    model: m
    concurrency: 1
    input: 8
    output: 2
    headers: {x-session-affinity: "{session}", x-tenant: acme}
    extra_body: {priority: 1, top_k: 5}
`
	w, err := Load(context.Background(), fstest.MapFS{"s.yaml": {Data: []byte(specText)}}, "s.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bodies, affinity []string
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(rw, r) // the probe and the scrape
			return
		}
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		affinity = append(affinity, r.Header.Get("X-Session-Affinity")+" "+r.Header.Get("X-Tenant"))
		mu.Unlock()
		rw.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(rw, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "run")
	_, err = Run(context.Background(), Config{Workload: w, Dir: dir, Target: srv.URL, NoPreflight: true, Bare: true,
		ExtraBody: JSONObject(`{"top_k":9}`)})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 3 {
		t.Fatalf("%d requests, want 3", len(bodies))
	}
	for i, b := range bodies {
		if !strings.HasSuffix(b, `,"priority":1,"top_k":9}`) || strings.Count(b, "top_k") != 1 {
			t.Errorf("request %d: %s; want the client's priority and the run's top_k, once", i, b)
		}
	}
	for _, want := range []string{"c-0 acme", "c-1 acme", "c-2 acme"} {
		if !strings.Contains(strings.Join(affinity, ","), want) {
			t.Errorf("headers %q: want %q", affinity, want)
		}
	}
}
