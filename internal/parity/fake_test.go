package parity

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"surge/content"
	"surge/openai"
)

// fake is a deterministic chat server: its answer to a prompt is
// n = scale·(5 + h mod 20) words, h the FNV-1a hash of the prompt, each
// word with logprob −0.1·(i mod 5) + shift.
type fake struct {
	scale          int     // output length multiplier; 0 means 1
	shift          float64 // added to every logprob
	rejectLogprobs bool    // answer 400 to requests asking for logprobs
	fail           bool    // answer 500 to everything
	model          string  // the only model accepted; "" accepts any
	key            string  // the bearer token or basic-auth password required
	badRequest     bool    // answer 400 to everything, as to a malformed body
	// maxModelLen, when set, is listed as vLLM lists it; slotCtx as
	// llama-server does, in GET /props (meta.n_ctx_train 8192 in the
	// list). Either refuses a prompt (counted in o200k_base) that leaves
	// no room for max_tokens, with vLLM's or llama-server's error.
	maxModelLen int
	slotCtx     int

	mu       sync.Mutex // guards the fields below
	requests []openai.Request
	raw      []map[string]any
}

// start serves f for the test's duration and returns its URL.
func (f *fake) start(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case f.maxModelLen > 0:
			fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"owned_by":"vllm","max_model_len":%d},{"id":"other"}]}`, f.model, f.maxModelLen)
		case f.slotCtx > 0:
			fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"owned_by":"llamacpp","meta":{"n_vocab":128256,"n_ctx_train":8192}}]}`, f.model)
		default:
			fmt.Fprintf(w, `{"object":"list","data":[{"id":%q},{"id":"other"}]}`, f.model)
		}
	})
	mux.HandleFunc("GET /props", func(w http.ResponseWriter, r *http.Request) {
		if f.slotCtx == 0 {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `{"default_generation_settings":{"n_ctx":%d},"total_slots":8}`, f.slotCtx)
	})
	mux.HandleFunc("POST /v1/chat/completions", f.chat)
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s.URL
}

func (f *fake) chat(w http.ResponseWriter, r *http.Request) {
	var req openai.Request
	var raw map[string]any
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&raw); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	b, _ := json.Marshal(raw)
	json.Unmarshal(b, &req)
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.raw = append(f.raw, raw)
	f.mu.Unlock()
	switch {
	case f.fail:
		http.Error(w, `{"error":{"message":"engine crashed"}}`, http.StatusInternalServerError)
		return
	case f.key != "" && !authorized(r, f.key):
		http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
		return
	case f.model != "" && req.Model != f.model:
		http.Error(w, `{"error":{"message":"no such model"}}`, http.StatusNotFound)
		return
	case f.badRequest:
		http.Error(w, `{"error":{"code":400,"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	case f.slotCtx > 0 && f.tokens(req)+req.MaxTokens > f.slotCtx:
		http.Error(w, fmt.Sprintf(`{"error":{"code":400,"message":"request (%d tokens) exceeds the available context size (%d tokens), try increasing it","type":"exceed_context_size_error"}}`,
			f.tokens(req)+req.MaxTokens, f.slotCtx), http.StatusBadRequest)
		return
	case f.maxModelLen > 0 && f.tokens(req)+req.MaxTokens > f.maxModelLen:
		http.Error(w, fmt.Sprintf(`{"error":{"message":"This model's maximum context length is %d tokens. However, you requested %d tokens","type":"BadRequestError","code":400}}`,
			f.maxModelLen, f.tokens(req)+req.MaxTokens), http.StatusBadRequest)
		return
	case f.rejectLogprobs && req.Logprobs:
		http.Error(w, `{"error":{"code":400,"message":"logprobs is not supported","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(f.answer(req))
}

// tokens counts req's prompt in o200k_base.
func (f *fake) tokens(req openai.Request) int {
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		panic(err)
	}
	return len(tok.Encode(req.Messages[0].Content))
}

// authorized accepts a bearer key or a basic-auth password equal to key.
func authorized(r *http.Request, key string) bool {
	if _, p, ok := r.BasicAuth(); ok {
		return p == key
	}
	return r.Header.Get("Authorization") == "Bearer "+key
}

// answer builds the chat completion for req.
func (f *fake) answer(req openai.Request) []byte {
	h := fnv.New64a()
	h.Write([]byte(req.Messages[0].Content))
	n := max(f.scale, 1) * int(5+h.Sum64()%20)
	finish := "stop"
	if n >= req.MaxTokens {
		n, finish = req.MaxTokens, "length"
	}
	var text strings.Builder
	var toks []Token
	for i := range n {
		w := fmt.Sprintf(" w%d", (int(h.Sum64()%7)+i)%10)
		text.WriteString(w)
		toks = append(toks, Token{w, -0.1*float64(i%5) + f.shift})
	}
	type lp struct {
		Content []Token `json:"content"`
	}
	var l *lp
	if req.Logprobs {
		l = &lp{toks}
	}
	body, _ := json.Marshal(map[string]any{
		"object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": l,
			"message": map[string]any{"role": "assistant", "content": text.String()}}},
		"usage": map[string]any{"prompt_tokens": 7, "completion_tokens": n, "total_tokens": 7 + n},
	})
	return body
}

// failFirst wraps a handler, answering 503 to its first chat request.
func failFirst(t *testing.T, f *fake) string {
	t.Helper()
	var mu sync.Mutex
	first := true
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fail := first && r.Method == http.MethodPost
		first = first && !fail
		mu.Unlock()
		if fail {
			http.Error(w, "warming up", http.StatusServiceUnavailable)
			return
		}
		f.chat(w, r)
	}))
	t.Cleanup(s.Close)
	return s.URL
}
