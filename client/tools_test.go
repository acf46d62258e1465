package client

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"surge/openai"
)

// TestToolRequestBodies asserts the exact body of a request with tools to
// each API that takes them, and that the others refuse tools unsent.
func TestToolRequestBodies(t *testing.T) {
	t.Parallel()
	tools := []openai.Tool{{Name: "get_file_1", Description: "Read a \"file\".", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}}
	msgs := []openai.Message{{Role: "system", Content: "S"}, {Role: "user", Content: "U"}}
	req := func(api, choice string, parallel bool) *Request {
		return &Request{API: api, Model: "m", MaxTokens: 4, Stream: true, Messages: msgs, Tools: tools, ToolChoice: choice, ParallelToolCalls: parallel}
	}
	const params = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`
	tests := []struct {
		req    *Request
		reply  string
		body   string
		reason string
	}{
		{req("chat", "auto", true), "vllm_chat.sse",
			`{"model":"m","messages":[{"role":"system","content":"S"},{"role":"user","content":"U"}],"max_tokens":4,"stream":true,"stream_options":{"include_usage":true},"tools":[{"type":"function","function":{"name":"get_file_1","description":"Read a \"file\".","parameters":` + params + `}}],"tool_choice":"auto","parallel_tool_calls":true}`,
			"chat: tools nested under function"},
		{req("responses", "required", false), "openai_responses.sse",
			`{"model":"m","input":[{"role":"system","content":"S"},{"role":"user","content":"U"}],"max_output_tokens":4,"stream":true,"store":false,"tools":[{"type":"function","name":"get_file_1","description":"Read a \"file\".","parameters":` + params + `}],"tool_choice":"required","parallel_tool_calls":false}`,
			"responses: tools flat beside their type"},
		{req("messages", "required", false), "anthropic_messages.sse",
			`{"model":"m","system":"S","messages":[{"role":"user","content":"U"}],"max_tokens":4,"stream":true,"tools":[{"name":"get_file_1","description":"Read a \"file\".","input_schema":` + params + `}],"tool_choice":{"type":"any","disable_parallel_tool_use":true}}`,
			"messages: input_schema, required is any, no parallel calls"},
		{req("messages", "auto", true), "anthropic_messages.sse",
			`{"model":"m","system":"S","messages":[{"role":"user","content":"U"}],"max_tokens":4,"stream":true,"tools":[{"name":"get_file_1","description":"Read a \"file\".","input_schema":` + params + `}],"tool_choice":{"type":"auto"}}`,
			"messages: auto with parallel calls"},
	}
	for _, tt := range tests {
		c, got := capture(t, Config{}, replyFile(t, tt.reply))
		checkOK(t, c.Do(context.Background(), tt.req))
		if len(*got) != 1 {
			t.Fatalf("%s: %d requests", tt.reason, len(*got))
		}
		if b := (*got)[0].body; b != tt.body {
			t.Errorf("%s:\n got %s\nwant %s", tt.reason, b, tt.body)
		}
	}
	for _, api := range []string{"completions", "embeddings"} {
		c, got := capture(t, Config{}, func(w http.ResponseWriter, r *http.Request) {})
		r := req(api, "auto", true)
		r.Messages, r.Prompt = nil, "x"
		res := c.Do(context.Background(), r)
		if res.Cause != CauseInvalid || !strings.Contains(res.Err, "defines no tools") || len(*got) != 0 {
			t.Errorf("%s with tools: %q %q, %d sent; want it refused unsent", api, res.Cause, res.Err, len(*got))
		}
	}
}

// TestToolCallResults checks what a reply's tool calls leave in the
// result, in each API's captured stream: the calls started, the events
// carrying them and the first one's time.
func TestToolCallResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api, file     string
		calls, chunks int
	}{
		{"chat", "vllm_tools.sse", 1, 3},
		{"responses", "openai_responses_tools.sse", 1, 3},
		{"messages", "anthropic_thinking_tools.sse", 1, 3},
		{"chat", "vllm_chat.sse", 0, 0},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, replyFile(t, tt.file))
		res := c.Do(context.Background(), &Request{API: tt.api, Model: "m", Prompt: "x", MaxTokens: 600, Stream: true})
		checkOK(t, res)
		if res.ToolCalls != tt.calls || res.ToolChunks != tt.chunks || res.FirstToolCall.IsZero() != (tt.calls == 0) {
			t.Errorf("%s: %d calls over %d chunks, first at %v; want %d over %d", tt.file, res.ToolCalls, res.ToolChunks, res.FirstToolCall, tt.calls, tt.chunks)
		}
		if tt.calls > 0 && (res.FirstToolCall.Before(res.FirstToken) || res.ToolChunks > res.Chunks) {
			t.Errorf("%s: first tool call %v before the first token %v, or %d tool chunks of %d", tt.file, res.FirstToolCall, res.FirstToken, res.ToolChunks, res.Chunks)
		}
	}
}

// TestToolCallIDsSplit checks that the reply's tool calls, the server's
// ids, names and arguments, are kept from each API's captured stream
// however its bytes are split across reads: in two pieces at every byte,
// and one byte per flush; and not kept without KeepText.
func TestToolCallIDsSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api, file string
		want      openai.Call
	}{
		{"chat", "vllm_tools.sse", openai.Call{ID: "chatcmpl-tool-5e2a", Name: "get_weather", Arguments: `{"city": "Paris"}`}},
		{"chat", "llmd_tools.sse", openai.Call{ID: "chatcmpl-tool-9782490790", Name: "get_weather", Arguments: `{"city":"Boston"}`}},
		{"responses", "openai_responses_tools.sse", openai.Call{ID: "call_12345xyz", Name: "get_weather", Arguments: `{"location":"Paris, France"}`}},
		{"messages", "anthropic_thinking_tools.sse", openai.Call{ID: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", Name: "get_weather", Arguments: `{"location": "San Francisco, CA"}`}},
	}
	for _, tt := range tests {
		b, err := os.ReadFile(filepath.Join("..", "openai", "testdata", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		body := string(b)
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			s := startSSE(w)
			at, _ := strconv.Atoi(r.Header.Get("X-Split"))
			if at == 0 {
				for i := range len(body) {
					s.raw(body[i : i+1])
				}
				return
			}
			s.raw(body[:at])
			s.raw(body[at:])
		})
		for at := range len(body) {
			req := &Request{API: tt.api, Model: "m", Prompt: "x", MaxTokens: 600, Stream: true, KeepText: true,
				Header: http.Header{"X-Split": {strconv.Itoa(at)}}}
			res := c.Do(context.Background(), req)
			checkOK(t, res)
			if len(res.Calls) != 1 || res.Calls[0] != tt.want {
				t.Fatalf("%s split at %d: calls %+v, want %+v", tt.file, at, res.Calls, tt.want)
			}
		}
		res := c.Do(context.Background(), &Request{API: tt.api, Model: "m", Prompt: "x", MaxTokens: 600, Stream: true})
		if checkOK(t, res); res.Calls != nil {
			t.Errorf("%s without KeepText: calls %+v kept", tt.file, res.Calls)
		}
	}
}
