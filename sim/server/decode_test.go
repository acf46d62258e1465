package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"surge/openai"
	"surge/sim"
)

func TestErrorResponses(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{MaxBodyBytes: 8192, Engine: engineSmall()})
	for _, tc := range []struct {
		name, path, body string
		code             int
		msg              string // a part of the message
	}{
		{"malformed JSON is a 400 naming the problem", openai.ChatPath, `{"model":`, 400, "invalid JSON"},
		{"trailing data after the object", openai.ChatPath, `{"model":"test-model"} {}`, 400, "after the top-level"},
		{"missing model", openai.ChatPath, `{"messages":[{"role":"user","content":"hi"}]}`, 400, "model is required"},
		{"missing messages", openai.ChatPath, `{"model":"test-model"}`, 400, "messages is required"},
		{"missing prompt", openai.CompletionsPath, `{"model":"test-model"}`, 400, "prompt is required"},
		{"negative max_tokens", openai.ChatPath, `{"model":"test-model","messages":[{"role":"user","content":"hi"}],"max_tokens":-1}`, 400, "max_tokens"},
		{"min_tokens above max_tokens", openai.CompletionsPath, `{"model":"test-model","prompt":"hi","max_tokens":2,"min_tokens":3}`, 400, "min_tokens"},
		{"batched prompts", openai.CompletionsPath, `{"model":"test-model","prompt":["a","b"]}`, 400, "batches"},
		{"image content part", openai.ChatPath, `{"model":"test-model","messages":[{"role":"user","content":[{"type":"image_url"}]}]}`, 400, "not supported"},
		{"unknown model is a 404 like vLLM", openai.ChatPath, `{"model":"gpt-9","messages":[{"role":"user","content":"hi"}]}`, 404, "The model `gpt-9` does not exist."},
		{"body over the limit is a 413", openai.CompletionsPath, `{"model":"test-model","prompt":"` + strings.Repeat("x", 9000) + `"}`, 413, "larger than 8192"},
		{"prompt over the context is vLLM's 400", openai.CompletionsPath, `{"model":"test-model","prompt":[` + strings.Repeat("1,", 2999) + `1],"max_tokens":10}`, 400, "maximum context length is 2048 tokens"},
		{"prompt + max_tokens over the context", openai.CompletionsPath, `{"model":"test-model","prompt":"hi","max_tokens":4000}`, 400, "(1 in the messages, 4000 in the completion)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, body := post(t, ts, tc.path, tc.body)
			if code != tc.code {
				t.Fatalf("status %d, want %d: %s", code, tc.code, body)
			}
			var e struct {
				Object, Message, Type string
				Param                 *string
				Code                  int
			}
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatal(err)
			}
			if e.Object != "error" || e.Code != tc.code || e.Type == "" || e.Param != nil || !strings.Contains(e.Message, tc.msg) {
				t.Errorf("body %s, want vLLM's error shape with code %d and %q", body, tc.code, tc.msg)
			}
			if in, err := openai.Decode(body); err != nil || !in.IsError {
				t.Errorf("openai.Decode sees no error in %s (%v)", body, err)
			}
		})
	}
}

// engineSmall is a 2048-token context on a 128-block cache.
func engineSmall() sim.EngineConfig { return sim.EngineConfig{NumBlocks: 128, MaxModelLen: 2048} }

func TestDecodeRequestAccepts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		chat       bool
		want       request
	}{
		{"content parts are concatenated", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`, true,
			request{chat: true, model: "m", texts: []string{"ab"}}},
		{"null content counts as empty", `{"model":"m","messages":[{"role":"assistant","content":null}]}`, true,
			request{chat: true, model: "m", texts: []string{""}}},
		{"max_completion_tokens stands for max_tokens", `{"model":"m","messages":[{"role":"user","content":"x"}],"max_completion_tokens":5}`, true,
			request{chat: true, model: "m", texts: []string{"x"}, maxTokens: 5}},
		{"token-ID prompt", `{"model":"m","prompt":[1,2,3],"stream":true,"stream_options":{"include_usage":true}}`, false,
			request{model: "m", ids: []int{1, 2, 3}, stream: true, includeUsage: true}},
		{"one-string array prompt", `{"model":"m","prompt":["x"],"min_tokens":2,"ignore_eos":true}`, false,
			request{model: "m", texts: []string{"x"}, minTokens: 2, ignoreEOS: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeRequest([]byte(tc.body), tc.chat)
			if err != nil {
				t.Fatal(err)
			}
			if !equalRequest(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func equalRequest(a, b request) bool {
	ja, _ := json.Marshal([]any{a.chat, a.model, a.texts, a.ids, a.maxTokens, a.minTokens, a.ignoreEOS, a.stream, a.includeUsage})
	jb, _ := json.Marshal([]any{b.chat, b.model, b.texts, b.ids, b.maxTokens, b.minTokens, b.ignoreEOS, b.stream, b.includeUsage})
	return string(ja) == string(jb)
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":3}`,
		`{"model":"m","prompt":[1,2,3],"stream":true,"stream_options":{"include_usage":true}}`,
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"}]}]}`,
		`{"model":"m","prompt":["x"],"min_tokens":-1}`, `[]`, `null`, `{"prompt":{}}`, ``,
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, chat bool) {
		r, err := decodeRequest(body, chat)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) || ae.status != http.StatusBadRequest || ae.msg == "" {
				t.Fatalf("error %v is not a 400 apiError", err)
			}
			return
		}
		if r.model == "" || (len(r.texts) == 0 && len(r.ids) == 0) || r.maxTokens < 0 || r.minTokens < 0 {
			t.Fatalf("accepted an invalid request %+v", r)
		}
	})
}
