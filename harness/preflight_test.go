package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

// openAI is a fake server: /v1/models answers models (404 when nil),
// and a chat request gets status, with one streamed token when it is
// 200. Like vLLM it refuses, with 404, a model it does not list.
func openAI(t *testing.T, models []string, status int) *httptest.Server {
	return fakeServer(t, models, status, true)
}

// fakeServer is openAI, refusing unlisted models when strict; a server
// that is not strict takes any name, as llama-server does.
func fakeServer(t *testing.T, models []string, status int, strict bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		switch {
		case r.URL.Path == "/v1/models" && models == nil:
			http.NotFound(w, r)
		case r.URL.Path == "/v1/models":
			var data []string
			for _, m := range models {
				data = append(data, fmt.Sprintf(`{"id":%q,"object":"model"}`, m))
			}
			fmt.Fprintf(w, `{"object":"list","data":[%s]}`, strings.Join(data, ","))
		case status != http.StatusOK:
			http.Error(w, `{"error":{"message":"refused"}}`, status)
		case strict && models != nil && !slices.Contains(models, req.Model):
			http.Error(w, `{"error":{"message":"The model does not exist."}}`, http.StatusNotFound)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n"+
				"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}\n\n"+
				"data: [DONE]\n\n")
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// closedPort is the URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// TestPreflight: before its schedule starts, a run checks each server's
// model list and sends it one small request; a failure is an
// UnreachableError naming the URL (without credentials) and what to do,
// and nothing is recorded. NoPreflight skips the checks.
func TestPreflight(t *testing.T) {
	t.Parallel()
	withUser := func(u string) string { return strings.Replace(u, "http://", "http://user:pw-secret-9@", 1) }
	tests := []struct {
		reason      string
		target      func() string
		noPreflight bool
		want        []string // in the error; nil: the run goes on
	}{
		{"a server that answers", func() string { return openAI(t, []string{"m"}, 200).URL }, false, nil},
		{"a server without /v1/models is judged by its answer", func() string { return openAI(t, nil, 200).URL }, false, nil},
		{"a model the server does not serve", func() string { return openAI(t, []string{"llama", "qwen"}, 200).URL }, false,
			[]string{`request for model "m" failed`, "404", "it lists llama, qwen", "--model"}},
		{"a model the server does not list but takes, as llama-server does", func() string { return fakeServer(t, []string{"llama"}, 200, false).URL }, false, nil},
		{"a refused key", func() string { return openAI(t, []string{"m"}, http.StatusUnauthorized).URL }, false,
			[]string{"1-token chat request", "401", "--api-key-env"}},
		{"an unknown route", func() string { return openAI(t, nil, http.StatusNotFound).URL }, false,
			[]string{"404", "--model", "--api"}},
		{"nothing listening, credentials left out", func() string { return withUser(closedPort(t)) }, false,
			[]string{"127.0.0.1", "refused", "not reachable", "--target"}},
		{"skipped", func() string { return openAI(t, []string{"other"}, http.StatusUnauthorized).URL }, true, nil},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "run")
		target := tt.target()
		res, err := Run(context.Background(), Config{Workload: failing(t, 2), Dir: dir, Target: target,
			NoPreflight: tt.noPreflight, Scrape: Scrape{Off: true}})
		if tt.want == nil {
			if err != nil || res.Summary.All.Sent != 2 {
				t.Errorf("%s: error %v; want the run to go on", tt.reason, err)
			}
			continue
		}
		if !as[UnreachableError](err) {
			t.Fatalf("%s: error %v, want an UnreachableError", tt.reason, err)
		}
		msg := err.Error()
		for _, w := range append(tt.want, "--no-preflight", strings.TrimPrefix(Redact(target), "http://")) {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q lacks %q", tt.reason, msg, w)
			}
		}
		if strings.Contains(msg, "pw-secret-9") {
			t.Errorf("%s: error %q shows the password", tt.reason, msg)
		}
		if _, err := os.Stat(recordsPath(dir)); !os.IsNotExist(err) {
			t.Errorf("%s: a records file was written: the schedule started", tt.reason)
		}
	}
}

// TestPreflightChecks: one request per server and API, for the first
// model each is sent; each server's models collected for its list.
func TestPreflightChecks(t *testing.T) {
	t.Parallel()
	w := failing(t, 4)
	w.Sessions[1].API = "completions"
	w.Sessions[2].Model = "q"
	w.Sessions[3].Model = "r"
	to := &Servers{base: "http://a", routes: map[string]string{"q": "http://b"}}
	checks, byURL := preflightChecks(&Config{}, w, to)
	want := []check{{"http://a", "chat", "m"}, {"http://a", "completions", "m"}, {"http://b", "chat", "q"}}
	if fmt.Sprint(checks) != fmt.Sprint(want) {
		t.Errorf("checks %v, want %v", checks, want)
	}
	if got := fmt.Sprint(byURL); got != "map[http://a:[m r] http://b:[q]]" {
		t.Errorf("models by server %s", got)
	}
	checks, _ = preflightChecks(&Config{API: "chat", Model: "x"}, w, to)
	if want := []check{{"http://a", "chat", "x"}}; fmt.Sprint(checks) != fmt.Sprint(want) {
		t.Errorf("with --api and --model: checks %v, want %v", checks, want)
	}
}

// TestPreflightScores: the preflight's request to a rerank or score
// server scores a document against its query, as those APIs need.
func TestPreflightScores(t *testing.T) {
	t.Parallel()
	for api, reply := range map[string]string{
		"rerank": `{"id":"r","results":[{"index":0,"relevance_score":0.5}],"usage":{"total_tokens":2}}`,
		"score":  `{"id":"s","object":"list","data":[{"index":0,"object":"score","score":0.5}],"usage":{"prompt_tokens":2,"total_tokens":2}}`,
	} {
		var first string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/models" {
				http.NotFound(w, r)
				return
			}
			if first == "" {
				b, _ := io.ReadAll(r.Body)
				first = string(b)
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, reply)
		}))
		t.Cleanup(srv.Close)
		w := scoresWorkload(t, api)
		res, err := Run(context.Background(), Config{Workload: w, Dir: filepath.Join(t.TempDir(), "run"), Target: srv.URL, Scrape: Scrape{Off: true}})
		if err != nil || res.Summary.All.Sent != 1 || res.Summary.All.OK != 1 {
			t.Errorf("%s: error %v; want the preflight passed and the run done", api, err)
		}
		if !strings.Contains(first, `"Hello"]`) {
			t.Errorf("%s: the preflight sent %s, want a document", api, first)
		}
	}
}

// scoresWorkload is a workload of one rerank or score request.
func scoresWorkload(t *testing.T, api string) *Workload {
	t.Helper()
	w := &Workload{Header: trace.Header{Text: true, Salt: trace.SaltNone, Clients: []trace.ClientInfo{{Name: "c", Model: "m"}}}}
	tw, err := trace.NewWriter(io.Discard, w.Header)
	if err != nil {
		t.Fatal(err)
	}
	s := &trace.Session{Client: "c", API: api, Turns: []trace.Turn{{Prompt: "q", Documents: []string{"a"}, InputTokens: 2}}}
	if err := tw.Write(s); err != nil {
		t.Fatal(err)
	}
	w.Sessions = []*trace.Session{s}
	if w.Hash, err = tw.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}
