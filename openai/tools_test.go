package openai

import (
	"bytes"
	"encoding/json"
	"testing"
)

// testTools are two tools, one with a description that needs escaping.
var testTools = []Tool{
	{Name: "search", Description: "Find \"files\" <by> name\n", Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
	{Name: "read", Description: "", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
}

// TestToolRequestsMatchEncodingJSON checks that every API's request with
// tools encodes as encoding/json does.
func TestToolRequestsMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	msgs := []Message{{Role: "user", Content: "go"}}
	tests := []struct {
		req interface {
			AppendJSON([]byte) []byte
		}
		reason string
	}{
		{&Request{Model: "m", Messages: msgs, Tools: ChatTools(testTools), ToolChoice: "auto", ParallelToolCalls: ptr(true), SurgeReasoningTokens: 2}, "chat with tools"},
		{&Request{Messages: msgs, Tools: ChatTools(testTools[:1]), ParallelToolCalls: ptr(false)}, "chat, no parallel calls"},
		{&ResponsesRequest{Model: "m", Input: msgs, Store: ptr(false), Tools: ResponsesTools(testTools), ToolChoice: "required", ParallelToolCalls: ptr(true)}, "responses with tools"},
		{&MessagesRequest{Model: "m", Messages: msgs, MaxTokens: 8, Tools: MessagesTools(testTools), ToolChoice: MessagesChoice("auto", false)}, "messages, one call per reply"},
		{&MessagesRequest{Messages: msgs, MaxTokens: 8, Tools: MessagesTools(testTools), ToolChoice: MessagesChoice("required", true)}, "messages, any"},
	}
	for _, tt := range tests {
		if got, want := tt.req.AppendJSON(nil), stdJSON(t, tt.req); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.reason, got, want)
		}
	}
}

// TestToolShapes checks each API's wrapping of one tool and choice.
func TestToolShapes(t *testing.T) {
	t.Parallel()
	tool := testTools[1:]
	tests := []struct {
		req interface {
			AppendJSON([]byte) []byte
		}
		want string
	}{
		{&Request{Tools: ChatTools(tool), ToolChoice: "auto", ParallelToolCalls: ptr(true)},
			`{"tools":[{"type":"function","function":{"name":"read","description":"","parameters":{"type":"object","properties":{}}}}],"tool_choice":"auto","parallel_tool_calls":true}`},
		{&ResponsesRequest{Tools: ResponsesTools(tool), ToolChoice: "none", ParallelToolCalls: ptr(false)},
			`{"tools":[{"type":"function","name":"read","description":"","parameters":{"type":"object","properties":{}}}],"tool_choice":"none","parallel_tool_calls":false}`},
		{&MessagesRequest{MaxTokens: 1, Tools: MessagesTools(tool), ToolChoice: MessagesChoice("required", false)},
			`{"max_tokens":1,"tools":[{"name":"read","description":"","input_schema":{"type":"object","properties":{}}}],"tool_choice":{"type":"any","disable_parallel_tool_use":true}}`},
		{&MessagesRequest{MaxTokens: 1, ToolChoice: MessagesChoice("none", false)},
			`{"max_tokens":1,"tool_choice":{"type":"none"}}`},
	}
	for _, tt := range tests {
		if got := string(tt.req.AppendJSON(nil)); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
	var def Tool
	if err := json.Unmarshal(testTools[0].AppendDef(nil), &def); err != nil || def.Name != "search" || def.Description != testTools[0].Description {
		t.Errorf("AppendDef decodes to %+v, %v", def, err)
	}
}
