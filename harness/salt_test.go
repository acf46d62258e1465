package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"surge/content"
	"surge/trace"
)

// capture is a server that answers every chat or completions request
// with one streamed token and keeps the text of each request's messages
// (or prompt), one string per message.
type capture struct {
	*httptest.Server
	mu   sync.Mutex
	sent [][]string
}

func newCapture(t *testing.T) *capture {
	t.Helper()
	c := &capture{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Prompt   string `json:"prompt"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		texts := []string{req.Prompt}
		if req.Messages != nil {
			texts = texts[:0]
			for _, m := range req.Messages {
				texts = append(texts, m.Content)
			}
		}
		c.mu.Lock()
		c.sent = append(c.sent, texts)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		delta := `"delta":{"content":"hi"}`
		if req.Messages == nil {
			delta = `"text":"hi"`
		}
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,%s}]}\n\ndata: {\"choices\":[{\"index\":0,\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n", delta)
	}))
	t.Cleanup(c.Close)
	return c
}

// saltSpec is a spec of four requests of the given input length for each
// API, and four conversations whose first message is a system prompt of
// that length.
func saltSpec(input int) string {
	return fmt.Sprintf(`version: 1
tokenizer: o200k_base
requests: 12
clients:
  - {name: chat, model: m, rate: 400/s, input: %[1]d, output: 2}
  - {name: complete, model: m, api: completions, rate: 400/s, input: %[1]d, output: 2}
  - {name: system, model: m, rate: 400/s, input: 16, output: 2, prefix: {pool: 2, length: %[1]d}}
`, input)
}

// TestSaltKeepsInputLengths: a salted run of a spec with input 1024 sends
// prompts of exactly 1024 tokens by the workload's own tokenizer, the
// salt at their start, and records them so; with input 1 (too short to
// hold the salt) the run is refused before any request, naming the
// client, the lengths and --salt none.
func TestSaltKeepsInputLengths(t *testing.T) {
	t.Parallel()
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int { return len(tok.Encode(s)) }
	run := func(input int) (*capture, *Result, error) {
		srv := newCapture(t)
		fsys := fstest.MapFS{"s.yaml": {Data: []byte(saltSpec(input))}}
		w, err := Load(context.Background(), fsys, "s.yaml", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), Config{Workload: w, Dir: filepath.Join(t.TempDir(), "run"), Target: srv.URL, Scrape: Scrape{Off: true}, NoPreflight: true})
		return srv, res, err
	}

	srv, res, err := run(1024)
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.sent) != 12 {
		t.Fatalf("the server got %d requests, want 12", len(srv.sent))
	}
	f, err := os.Open(filepath.Join(res.Dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := trace.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	salt := recs.Header.Salt
	for _, texts := range srv.sent {
		if !strings.HasPrefix(texts[0], salt) || salt == "" {
			t.Errorf("a request's first message %.40q does not begin with the run's salt %q", texts[0], salt)
		}
		n := 0
		for _, s := range texts {
			n += count(s)
		}
		if first := count(texts[0]); first != 1024 || (len(texts) == 2 && n != 1024+16) {
			t.Errorf("sent messages of %d tokens in all, the first %d; want the first exactly 1024, the salt's among them", n, first)
		}
	}
	for _, r := range recs.Records {
		want := 1024
		if r.Client == "system" {
			want += 16
		}
		if r.InputTokens != want || r.ClientInputTokens != want {
			t.Errorf("%s/%d: recorded input_tokens %d, client_input_tokens %d; want %d", r.Client, r.Session, r.InputTokens, r.ClientInputTokens, want)
		}
	}

	srv, _, err = run(1)
	if !as[ConfigError](err) || len(srv.sent) != 0 {
		t.Fatalf("a run of prompts of 1 token: %v, %d requests; want a ConfigError before any request", err, len(srv.sent))
	}
	saltTokens := count("[surge 0123456789]\n")
	for _, want := range []string{
		`the run's salt "[surge `,
		fmt.Sprintf(`takes the place of the first %d tokens of each conversation`, saltTokens),
		`client "chat": `, `client "complete": `, "conversations start with a message shorter than that (the shortest: session 0, 1 token)",
		`client "system": `, "conversations start with a system prompt shorter than that",
		"--salt none", "longer system prompts", "a longer input",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\ndoes not say %q", err, want)
		}
	}
}

// TestSaltLength: every run's salt is as many tokens long, whatever its
// nonce, so a prompt too short for it is so in every run.
func TestSaltLength(t *testing.T) {
	t.Parallel()
	w := &Workload{Header: trace.Header{Tokenizer: "o200k_base"}}
	lengths := map[int]int{}
	for range 200 {
		s, err := runSalt("", w)
		if err != nil {
			t.Fatal(err)
		}
		lengths[s.tokens]++
	}
	if len(lengths) != 1 {
		t.Errorf("200 salts have lengths {tokens: salts} %v, want one length", lengths)
	}
}
