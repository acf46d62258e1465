package client

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"surge/openai"
)

// captured is one request as a capture server saw it.
type captured struct {
	path   string
	header http.Header
	body   string
}

// capture starts a server that records each request and answers with
// reply, and returns a client for it (with cfg) and the recorded requests.
func capture(t *testing.T, cfg Config, reply func(w http.ResponseWriter, r *http.Request)) (*Client, *[]captured) {
	t.Helper()
	var got []captured
	c, _ := serve(t, cfg, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h := r.Header.Clone()
		h.Del("Content-Length")
		got = append(got, captured{path: r.URL.Path, header: h, body: string(b)})
		reply(w, r)
	})
	return c, &got
}

// replyFile answers with a file of openai's test data: an event stream
// for .sse, a JSON body otherwise.
func replyFile(t *testing.T, name string) func(w http.ResponseWriter, r *http.Request) {
	b, err := os.ReadFile(filepath.Join("..", "openai", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(name, ".sse") {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.Write(b)
	}
}

// TestAPIRequestBodies asserts the exact path, body and headers of a
// request to each API.
func TestAPIRequestBodies(t *testing.T) {
	t.Parallel()
	temp := 0.5
	conv := []struct{ role, content string }{{"system", "Be brief."}, {"user", "Hi \"there\""}, {"assistant", "Hello."}, {"user", "More?"}}
	base := func(api string) *Request {
		r := &Request{API: api, Model: "m", MaxTokens: 16, MinTokens: 16, IgnoreEOS: true, Temperature: &temp, Stream: true}
		for _, m := range conv {
			r.Messages = append(r.Messages, openai.Message{Role: m.role, Content: m.content})
		}
		return r
	}
	common := http.Header{"Content-Type": {"application/json"}, "User-Agent": {"surge"}, "Accept-Encoding": {"identity"},
		"Authorization": {"Bearer sk-test"}, "X-Gateway": {"g"}}
	with := func(extra http.Header) http.Header {
		h := common.Clone()
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	tests := []struct {
		req    *Request
		reply  string
		path   string
		body   string
		header http.Header
		reason string
	}{
		{base("chat"), "vllm_chat.sse", "/v1/chat/completions",
			`{"model":"m","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi \"there\""},{"role":"assistant","content":"Hello."},{"role":"user","content":"More?"}],"max_tokens":16,"min_tokens":16,"ignore_eos":true,"temperature":0.5,"stream":true,"stream_options":{"include_usage":true}}`,
			common, "chat, unchanged"},
		{base("responses"), "openai_responses.sse", "/v1/responses",
			`{"model":"m","input":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi \"there\""},{"role":"assistant","content":"Hello."},{"role":"user","content":"More?"}],"max_output_tokens":16,"min_tokens":16,"ignore_eos":true,"temperature":0.5,"stream":true,"store":false}`,
			common, "responses: the conversation as input, max_output_tokens, no stream_options, store false"},
		{&Request{API: "responses", Model: "m", Prompt: "Hello", MaxTokens: 8}, "openai_response.json", "/v1/responses",
			`{"model":"m","input":[{"role":"user","content":"Hello"}],"max_output_tokens":8,"store":false}`,
			common, "responses, one prompt, not streamed"},
		{base("messages"), "anthropic_messages.sse", "/v1/messages",
			`{"model":"m","system":"Be brief.","messages":[{"role":"user","content":"Hi \"there\""},{"role":"assistant","content":"Hello."},{"role":"user","content":"More?"}],"max_tokens":16,"min_tokens":16,"ignore_eos":true,"temperature":0.5,"stream":true}`,
			with(http.Header{"Anthropic-Version": {"2023-06-01"}, "X-Api-Key": {"sk-test"}}), "messages: the system prompt apart, x-api-key and anthropic-version"},
		{&Request{API: "embeddings", Model: "m", Inputs: []string{"a", "b é"}, Stream: true}, "llmd_embeddings.json", "/v1/embeddings",
			`{"model":"m","input":["a","b é"]}`, common, "embeddings: a batch, never streamed"},
		{&Request{API: "embeddings", Model: "e", Prompt: "one", MaxTokens: 5, Temperature: &temp}, "openai_embeddings.json", "/v1/embeddings",
			`{"model":"e","input":["one"]}`, common, "embeddings: the prompt alone, no generation settings"},
		{&Request{API: "rerank", Model: "r", Prompt: "capital \"of\" France?", Documents: []string{"Brasilia.", "Paris é."}, MaxTokens: 5, Temperature: &temp, Stream: true},
			"vllm_rerank.json", "/v1/rerank",
			`{"model":"r","query":"capital \"of\" France?","documents":["Brasilia.","Paris é."]}`, common, "rerank: the query and its documents, no generation settings, never streamed"},
		{&Request{API: "score", Model: "s", Prompt: "q", Documents: []string{"a", "b<"}, Stream: true}, "vllm_score.json", "/v1/score",
			`{"model":"s","text_1":"q","text_2":["a","b<"]}`, common, "score: text_1 against each text_2, never streamed"},
	}
	for _, tt := range tests {
		c, got := capture(t, Config{APIKey: "sk-test", Header: http.Header{"X-Gateway": {"g"}}}, replyFile(t, tt.reply))
		res := c.Do(context.Background(), tt.req)
		if tt.req.API == "embeddings" && len(tt.req.Inputs) < 2 {
			// openai_embeddings.json holds two vectors for one input.
			if res.ErrClass != "stream" || !strings.Contains(res.Err, "2 embeddings for 1 inputs") {
				t.Errorf("%s: %q %q, want a stream error for 2 vectors to 1 input", tt.reason, res.ErrClass, res.Err)
			}
		} else {
			checkOK(t, res)
		}
		if len(*got) != 1 {
			t.Fatalf("%s: %d requests", tt.reason, len(*got))
		}
		r := (*got)[0]
		if r.path != tt.path || r.body != tt.body {
			t.Errorf("%s:\n path %s body %s\nwant %s      %s", tt.reason, r.path, r.body, tt.path, tt.body)
		}
		if !reflect.DeepEqual(r.header, tt.header) {
			t.Errorf("%s: headers\n %v\nwant %v", tt.reason, r.header, tt.header)
		}
	}
}

// TestAPIStreamResults reads each API's documented streams and whole
// bodies into results.
func TestAPIStreamResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api, file           string
		chunks              int
		prompt, out, cached int
		finish, text, err   string
		reasoning, stream   bool
	}{
		{"responses", "openai_responses.sse", 3, 37, 11, 0, "stop", `Hi there! "é"`, "", false, true},
		{"responses", "openai_responses_tools.sse", 5, 291, 150, 256, "tool_calls", "", "", true, true},
		{"responses", "openai_responses_incomplete.sse", 2, 12, 2, 0, "length", "Once upon", "", false, true},
		{"responses", "openai_responses_error.sse", 1, 0, 0, 0, "", "Par", "error event: The server had an error while processing your request.", false, true},
		{"responses", "openai_response.json", 1, 328, 52, 0, "stop", "The image depicts a scenic landscape.", "", true, false},
		{"messages", "anthropic_messages.sse", 2, 2073, 15, 2048, "stop", "Hello! é", "", false, true},
		{"messages", "anthropic_thinking_tools.sse", 6, 472, 89, 0, "tool_calls", "Let me check.", "", true, true},
		{"messages", "anthropic_error.sse", 1, 10, 1, 0, "", "Hi", "error event: Overloaded", false, true},
		{"messages", "anthropic_message.json", 1, 3195, 12, 1000, "length", "Hi! My name is Claude.", "", true, false},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, replyFile(t, tt.file))
		res := c.Do(context.Background(), &Request{API: tt.api, Model: "m", Prompt: "x", MaxTokens: 600, Stream: tt.stream, KeepText: true})
		if tt.err != "" {
			if res.ErrClass != "stream" || res.Err != tt.err {
				t.Errorf("%s: %q %q, want stream %q", tt.file, res.ErrClass, res.Err, tt.err)
			}
		} else {
			checkOK(t, res)
		}
		if res.Chunks != tt.chunks || res.PromptTokens != tt.prompt || res.CompletionTokens != tt.out || res.CachedTokens != tt.cached ||
			res.FinishReason != tt.finish || res.Text != tt.text || res.Whole == tt.stream {
			t.Errorf("%s: chunks %d, tokens %d/%d, cached %d, finish %q, text %q, whole %v", tt.file, res.Chunks, res.PromptTokens, res.CompletionTokens, res.CachedTokens, res.FinishReason, res.Text, res.Whole)
		}
		if (res.Reasoning != "") != tt.reasoning {
			t.Errorf("%s: reasoning %q", tt.file, res.Reasoning)
		}
	}
}

// TestAPIInvalid checks the requests Do refuses to send.
func TestAPIInvalid(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) { t.Error("request sent") })
	msgs := []openai.Message{{Role: "user", Content: "x"}}
	tests := []struct {
		req  *Request
		want string
	}{
		{&Request{API: "messages", Model: "m", Prompt: "x"}, "needs max_tokens"},
		{&Request{API: "embeddings", Model: "m", Messages: msgs}, "takes text, not messages"},
		{&Request{API: "completions", Model: "m", Messages: msgs}, "takes text, not messages"},
		{&Request{API: "chat", Model: "m", Inputs: []string{"a", "b"}}, "not a batch of 2 inputs"},
		{&Request{API: "embeddings", Model: "m", Prompt: "q", Documents: []string{"a"}}, "scores no documents (1 given)"},
		{&Request{API: "rerank", Model: "m", Prompt: "q"}, "needs documents"},
		{&Request{API: "score", Model: "m", Prompt: "q"}, "needs documents"},
		{&Request{API: "rerank", Model: "m", Messages: msgs, Documents: []string{"a"}}, "takes text, not messages"},
	}
	for _, tt := range tests {
		res := c.Do(context.Background(), tt.req)
		if res.ErrClass != "http" || res.Cause != CauseInvalid || !strings.Contains(res.Err, tt.want) {
			t.Errorf("%s: %q %q %q, want http invalid %q", tt.req.API, res.ErrClass, res.Cause, res.Err, tt.want)
		}
	}
}

// TestTypedStreamTruncated checks that a Responses or Messages stream
// cut before its final event and any stop reason is truncated.
func TestTypedStreamTruncated(t *testing.T) {
	t.Parallel()
	for api, data := range map[string]string{
		"responses": `{"type":"response.output_text.delta","delta":"a"}`,
		"messages":  `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}`,
	} {
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			startSSE(w).raw("event: x\ndata: " + data + "\n\n")
		})
		res := c.Do(context.Background(), &Request{API: api, Model: "m", Prompt: "x", MaxTokens: 4, Stream: true})
		if res.ErrClass != "stream" || res.Cause != CauseTruncated || res.Chunks != 1 {
			t.Errorf("%s: %q %q %q, %d chunks; want a truncated stream of 1", api, res.ErrClass, res.Cause, res.Err, res.Chunks)
		}
	}
}

// TestRequestOptions asserts the exact body and headers of requests with
// extra body members and headers of their own: the members merged in (a
// member of the client's name replaced, once), the headers added beside
// the client's without overriding them.
func TestRequestOptions(t *testing.T) {
	t.Parallel()
	c, got := capture(t, Config{APIKey: "sk-test"}, replyFile(t, "vllm_chat.sse"))
	req := chatReq()
	req.Extra = []byte(`{"priority":1,"stream_options":{"include_usage":true,"continuous_usage_stats":true}}`)
	req.Header = http.Header{"X-Session-Affinity": {"chat-7"}, "Authorization": {"Bearer other"}, "User-Agent": {"x"}}
	checkOK(t, c.Do(context.Background(), req))
	r := (*got)[0]
	want := `{"model":"m","messages":[{"role":"user","content":"Hello"}],"max_tokens":16,"stream":true,"priority":1,"stream_options":{"include_usage":true,"continuous_usage_stats":true}}`
	if r.body != want {
		t.Errorf("body\n %s\nwant %s", r.body, want)
	}
	wantHeader := http.Header{"Content-Type": {"application/json"}, "User-Agent": {"surge"}, "Accept-Encoding": {"identity"},
		"Authorization": {"Bearer sk-test"}, "X-Session-Affinity": {"chat-7"}}
	if !reflect.DeepEqual(r.header, wantHeader) {
		t.Errorf("headers\n %v\nwant %v", r.header, wantHeader)
	}
	req.Extra = []byte(`[1]`)
	if res := c.Do(context.Background(), req); res.ErrClass != "http" || res.Cause != CauseInvalid || len(*got) != 1 {
		t.Errorf("an extra body that is no object: %q %q, %d requests sent; want invalid, none sent", res.ErrClass, res.Err, len(*got)-1)
	}
}

// TestScoresResults reads rerank and score bodies into results, and
// fails those whose scores do not answer the documents sent.
func TestScoresResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api, body string
		docs      int
		scores    int
		prompt    int
		err       string
		reason    string
	}{
		{"rerank", `{"id":"r","results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}],"usage":{"total_tokens":20}}`, 2, 2, 20, "", "every document ranked; total_tokens is the prompt"},
		{"rerank", `{"results":[{"index":1,"relevance_score":0.9}],"usage":{"total_tokens":20}}`, 3, 1, 20, "", "top_n cut the results"},
		{"rerank", `{"results":[],"usage":{"total_tokens":20}}`, 3, 0, 20, "0 results for 3 documents", "no result"},
		{"rerank", `{"results":[{"relevance_score":1},{"relevance_score":1}]}`, 1, 2, 0, "2 results for 1 documents", "more results than documents"},
		{"score", `{"data":[{"index":0,"object":"score","score":0.5}],"usage":{"prompt_tokens":7,"total_tokens":7}}`, 1, 1, 7, "", "one score"},
		{"score", `{"data":[{"index":0,"object":"score","score":0.5}]}`, 2, 1, 0, "1 scores for 2 documents", "a score missing"},
		{"score", `{"data":[{"score":"high"}]}`, 1, 0, 0, "malformed response body", "a score that is not a number"},
		{"rerank", `{"results":[{"relevance_score":0.5}`, 1, 0, 0, "malformed response body", "cut short"},
		{"score", `{"object":"error","message":"not a cross-encoder","code":400}`, 1, 0, 0, "error in response: not a cross-encoder", "an error body with status 200"},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, tt.body)
		})
		res := c.Do(context.Background(), &Request{API: tt.api, Model: "m", Prompt: "q", Documents: make([]string, tt.docs)})
		if tt.err == "" {
			checkOK(t, res)
		} else if res.ErrClass != "stream" || !strings.Contains(res.Err, tt.err) {
			t.Errorf("%s: %q %q, want a stream error %q", tt.reason, res.ErrClass, res.Err, tt.err)
		}
		if tt.err == "" && (res.Scores != tt.scores || res.PromptTokens != tt.prompt || !res.Whole || res.Chunks != 0) {
			t.Errorf("%s: scores %d, prompt %d, whole %v, chunks %d; want %d, %d, whole, 0", tt.reason, res.Scores, res.PromptTokens, res.Whole, res.Chunks, tt.scores, tt.prompt)
		}
	}
}

// TestScoresTooLarge checks that a rerank body past the byte cap stops
// being read, as every API's does.
func TestScoresTooLarge(t *testing.T) {
	t.Parallel()
	body := `{"results":[` + strings.Repeat(`{"index":0,"relevance_score":0.5},`, 1000) + `{"index":0,"relevance_score":0.5}]}`
	c, _ := serve(t, Config{MaxResponseBytes: 4096}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	})
	res := c.Do(context.Background(), &Request{API: "rerank", Model: "m", Prompt: "q", Documents: []string{"a"}})
	if res.ErrClass != "too_large" {
		t.Errorf("%q %q, want too_large", res.ErrClass, res.Err)
	}
}
