package client

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"surge/openai"
)

// TestOptionBodies asserts the exact body and headers a capture server
// sees for each API with each typed option, in the API's own shape.
func TestOptionBodies(t *testing.T) {
	t.Parallel()
	schema := &openai.Format{Type: openai.FormatJSONSchema, Name: "answer", Schema: []byte(`{"type":"object"}`), Strict: true}
	object := &openai.Format{Type: openai.FormatJSONObject}
	common := http.Header{"Content-Type": {"application/json"}, "User-Agent": {"surge"}, "Accept-Encoding": {"identity"},
		"Authorization": {"Bearer sk-test"}}
	anthropic := common.Clone()
	anthropic["Anthropic-Version"], anthropic["X-Api-Key"] = []string{"2023-06-01"}, []string{"sk-test"}
	const (
		chat = `{"model":"m","messages":[{"role":"user","content":"Hi"}],"max_tokens":8`
		cmpl = `{"model":"m","prompt":"Hi","max_tokens":8`
		resp = `{"model":"m","input":[{"role":"user","content":"Hi"}],"max_output_tokens":8,"store":false`
		msgs = `{"model":"m","messages":[{"role":"user","content":"Hi"}],"max_tokens":8`
	)
	tests := []struct {
		api   string
		opts  openai.Options
		reply string
		body  string
	}{
		{"chat", openai.Options{Format: schema}, "vllm_chat.json",
			chat + `,"response_format":{"type":"json_schema","json_schema":{"name":"answer","schema":{"type":"object"},"strict":true}}}`},
		{"chat", openai.Options{Format: object}, "vllm_chat.json", chat + `,"response_format":{"type":"json_object"}}`},
		{"chat", openai.Options{N: 2}, "vllm_chat.json", chat + `,"n":2}`},
		{"chat", openai.Options{Stop: []string{"\n\n", "END"}}, "vllm_chat.json", chat + `,"stop":["\n\n","END"]}`},
		{"chat", openai.Options{Logprobs: true, TopLogprobs: 3}, "vllm_chat.json", chat + `,"logprobs":true,"top_logprobs":3}`},
		{"chat", openai.Options{Logprobs: true}, "vllm_chat.json", chat + `,"logprobs":true}`},
		{"completions", openai.Options{Format: schema}, "vllm_completions.json",
			cmpl + `,"response_format":{"type":"json_schema","json_schema":{"name":"answer","schema":{"type":"object"},"strict":true}}}`},
		{"completions", openai.Options{N: 3, Stop: []string{"."}}, "vllm_completions.json", cmpl + `,"n":3,"stop":["."]}`},
		{"completions", openai.Options{Logprobs: true, TopLogprobs: 2}, "vllm_completions.json", cmpl + `,"logprobs":2}`},
		{"completions", openai.Options{Logprobs: true}, "vllm_completions.json", cmpl + `,"logprobs":0}`},
		{"responses", openai.Options{Format: schema}, "openai_response.json",
			resp + `,"text":{"format":{"type":"json_schema","name":"answer","schema":{"type":"object"},"strict":true}}}`},
		{"responses", openai.Options{Format: object}, "openai_response.json", resp + `,"text":{"format":{"type":"json_object"}}}`},
		{"responses", openai.Options{Logprobs: true, TopLogprobs: 5}, "openai_response.json",
			resp + `,"top_logprobs":5,"include":["message.output_text.logprobs"]}`},
		{"messages", openai.Options{Stop: []string{"END"}}, "anthropic_message.json", msgs + `,"stop_sequences":["END"]}`},
		{"messages", openai.Options{Format: schema}, "anthropic_message.json",
			msgs + `,"output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}}`},
	}
	for _, tt := range tests {
		c, got := capture(t, Config{APIKey: "sk-test"}, replyFile(t, tt.reply))
		opts := tt.opts
		checkOK(t, c.Do(context.Background(), &Request{API: tt.api, Model: "m", Prompt: "Hi", MaxTokens: 8, Options: &opts}))
		if len(*got) != 1 {
			t.Fatalf("%s %+v: %d requests", tt.api, tt.opts, len(*got))
		}
		r := (*got)[0]
		if r.body != tt.body {
			t.Errorf("%s %+v:\n body %s\n want %s", tt.api, tt.opts, r.body, tt.body)
		}
		want := common
		if tt.api == "messages" {
			want = anthropic
		}
		if !reflect.DeepEqual(r.header, want) {
			t.Errorf("%s: headers\n %v\nwant %v", tt.api, r.header, want)
		}
	}
}

// TestOptionsRefused checks that an option an API has no member for
// fails the request unsent, naming the option.
func TestOptionsRefused(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) { t.Error("request sent") })
	tests := []struct {
		api  string
		opts openai.Options
		want string
	}{
		{"responses", openai.Options{N: 2}, "n: api responses has no n"},
		{"messages", openai.Options{N: 2}, "n: api messages has no n"},
		{"responses", openai.Options{Stop: []string{"x"}}, "stop: api responses has no stop"},
		{"messages", openai.Options{Logprobs: true}, "logprobs: api messages has no logprobs"},
		{"messages", openai.Options{Format: &openai.Format{Type: openai.FormatJSONObject}}, "response_format: api messages has no response_format"},
		{"embeddings", openai.Options{Format: &openai.Format{Type: openai.FormatJSONSchema, Name: "a", Schema: []byte(`{}`)}}, "api embeddings has no response_format"},
		{"chat", openai.Options{N: 500}, "n must be in [1, 128]"},
		{"chat", openai.Options{TopLogprobs: 2}, "top_logprobs: needs logprobs: true"},
	}
	for _, tt := range tests {
		opts := tt.opts
		res := c.Do(context.Background(), &Request{API: tt.api, Model: "m", Prompt: "x", MaxTokens: 4, Options: &opts})
		if res.ErrClass != "http" || res.Cause != CauseInvalid || !strings.Contains(res.Err, tt.want) {
			t.Errorf("%s %+v: %q %q %q, want invalid %q", tt.api, tt.opts, res.ErrClass, res.Cause, res.Err, tt.want)
		}
	}
}

// TestChoiceTokens checks that a stream of several choices is counted
// per choice by index, the first token of any choice being the first
// token, and that a request for one choice keeps no per-choice counts.
func TestChoiceTokens(t *testing.T) {
	t.Parallel()
	events := []string{
		`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`,
		`{"choices":[{"index":1,"delta":{"content":"a"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"b"}}]}`,
		`{"choices":[{"index":1,"delta":{"content":"c"}}]}`,
		`{"choices":[{"index":1,"delta":{"content":"d"},"finish_reason":"length"}]}`,
		`{"choices":[{"index":0,"delta":{"content":"e"},"finish_reason":"stop"}]}`,
		`{"choices":[{"index":7,"delta":{"content":"x"}}]}`,
		`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5}}`,
	}
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		for _, e := range events {
			s.send(e)
		}
		s.raw("data: [DONE]\n\n")
	})
	req := chatReq()
	req.Options = &openai.Options{N: 2}
	res := c.Do(context.Background(), req)
	checkOK(t, res)
	if !reflect.DeepEqual(res.ChoiceTokens, []int{2, 3}) || res.Chunks != 6 || res.CompletionTokens != 5 {
		t.Errorf("choice tokens %v, %d chunks, %d completion tokens; want [2 3], 6, 5", res.ChoiceTokens, res.Chunks, res.CompletionTokens)
	}
	if res.FirstToken.IsZero() || len(res.TokenTimes) != 2 || res.FirstToken.After(res.TokenTimes[0]) {
		t.Errorf("first token %v, %d token times; want the first token of any choice, and choice 0's 2 events timed", res.FirstToken, len(res.TokenTimes))
	}
	req.Options = nil
	if res := c.Do(context.Background(), req); res.ChoiceTokens != nil {
		t.Errorf("one choice: choice tokens %v, want none", res.ChoiceTokens)
	}
}
