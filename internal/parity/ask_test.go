package parity

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// TestAskWire checks the probe's request body, member by member (zero
// temperature and seed sent, logprobs only when asked, never null), and
// that the answer is read from openai's response type.
func TestAskWire(t *testing.T) {
	t.Parallel()
	for _, logprobs := range []bool{false, true} {
		var got map[string]any
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(b, &got); err != nil {
				t.Errorf("body %s: %v", b, err)
			}
			io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi <b>"},"logprobs":{"content":[{"token":"hi","logprob":-0.5}]},"finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`)
		}))
		e, err := newEndpoint(srv.Client(), Target{Name: "a", BaseURL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		a, err := e.ask(t.Context(), "m", "say <hi>", 7, logprobs)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"model": "m", "messages": []any{map[string]any{"role": "user", "content": "say <hi>"}},
			"max_tokens": 7.0, "temperature": 0.0, "seed": 0.0}
		if logprobs {
			want["logprobs"] = true
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("logprobs %v: body %v, want %v", logprobs, got, want)
		}
		wantA := Answer{Text: "hi <b>", FinishReason: "length", CompletionTokens: 2, Tokens: []Token{{Token: "hi", Logprob: -0.5}}}
		if !reflect.DeepEqual(a, wantA) {
			t.Errorf("answer %+v, want %+v", a, wantA)
		}
	}
}
