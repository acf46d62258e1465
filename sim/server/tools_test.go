package server

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"surge/client"
	"surge/openai"
)

// TestToolCalls checks that a chat, responses or messages request
// defining tools gets, with a share of 1, a call of its first tool ending
// with the API's tool-call stop, whose argument tokens are its answer
// tokens and whose arguments are a JSON object, streamed or whole; that
// its definitions count as prompt tokens; and that a negative share
// gives text.
func TestToolCalls(t *testing.T) {
	t.Parallel()
	tools := []openai.Tool{{Name: "get_file_1", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object"}`)}, {Name: "other", Parameters: json.RawMessage(`{}`)}}
	for _, share := range []float64{1, -1} {
		_, ts := newTestServer(t, Config{ToolCallShare: share, OutputMedian: 10})
		c, err := client.New(client.Config{BaseURL: ts.URL})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		for _, api := range []string{openai.APIChat, openai.APIResponses, openai.APIMessages} {
			for _, stream := range []bool{true, false} {
				base := client.Request{API: api, Model: testModel, Prompt: "list the files", MaxTokens: 4000, MinTokens: 6, Stream: stream, KeepText: true, ReasoningTokens: 2}
				plain := c.Do(context.Background(), &base)
				withTools := base
				withTools.Tools, withTools.ToolChoice, withTools.ParallelToolCalls = tools, "auto", true
				res := c.Do(context.Background(), &withTools)
				if res.ErrClass != "" || plain.ErrClass != "" {
					t.Fatalf("%s, share %g, stream %t: %s %s / %s", api, share, stream, res.ErrClass, res.Err, plain.Err)
				}
				if res.PromptTokens <= plain.PromptTokens {
					t.Errorf("%s, share %g: %d prompt tokens with tools, %d without: the definitions are prompt", api, share, res.PromptTokens, plain.PromptTokens)
				}
				wantCalls, wantChunks, finish := 1, res.CompletionTokens-2, "tool_calls"
				if share < 0 {
					wantCalls, wantChunks, finish = 0, 0, "stop"
				}
				if !stream && share > 0 {
					wantChunks = 1
				}
				if res.ToolCalls != wantCalls || res.ToolChunks != wantChunks || res.FinishReason != finish || res.CompletionTokens < 6 {
					t.Errorf("%s, share %g, stream %t: %d calls over %d chunks, finish %q, %d tokens; want %d over %d, %q, at least 6",
						api, share, stream, res.ToolCalls, res.ToolChunks, res.FinishReason, res.CompletionTokens, wantCalls, wantChunks, finish)
				}
				if len(res.Calls) != wantCalls {
					t.Fatalf("%s, share %g, stream %t: calls %+v", api, share, stream, res.Calls)
				}
				for _, call := range res.Calls {
					var args map[string]string
					if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil || call.ID == "" || call.Name != "get_file_1" {
						t.Errorf("%s, stream %t: call %+v (%v); want an id, get_file_1 and a JSON object", api, stream, call, err)
					}
				}
			}
		}
	}
}

// TestToolResultsAccepted checks that each API takes a conversation
// holding an assistant's tool calls and their results in its own shape,
// and counts the calls and the results as prompt tokens.
func TestToolResultsAccepted(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{ToolCallShare: -1, OutputMedian: 4})
	c, err := client.New(client.Config{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	tools := []openai.Tool{{Name: "f", Parameters: json.RawMessage(`{"type":"object"}`)}}
	before := []openai.Message{{Role: "system", Content: "S"}, {Role: "user", Content: "read the file"}}
	calls := []openai.Call{{ID: "c1", Name: "f", Arguments: `{"path":"a/b/c/d"}`}, {ID: "c2", Name: "f", Arguments: `{}`}}
	loop := append(slices.Clone(before),
		openai.Message{Role: "assistant", Calls: calls},
		openai.Message{Role: openai.RoleTool, CallID: "c1", Content: "the first file holds a long list of words"},
		openai.Message{Role: openai.RoleTool, CallID: "c2", Content: "the second one too"})
	for _, api := range []string{openai.APIChat, openai.APIResponses, openai.APIMessages} {
		for _, stream := range []bool{true, false} {
			short := c.Do(context.Background(), &client.Request{API: api, Model: testModel, Messages: before, Tools: tools, MaxTokens: 8, Stream: stream})
			long := c.Do(context.Background(), &client.Request{API: api, Model: testModel, Messages: loop, Tools: tools, MaxTokens: 8, Stream: stream})
			if short.ErrClass != "" || long.ErrClass != "" {
				t.Fatalf("%s, stream %t: %s / %s", api, stream, short.Err, long.Err)
			}
			if long.PromptTokens < short.PromptTokens+15 {
				t.Errorf("%s, stream %t: %d prompt tokens with the calls and results, %d without", api, stream, long.PromptTokens, short.PromptTokens)
			}
		}
	}
}

// TestToolCallArguments checks that a streamed call's argument deltas
// join into a JSON object and its id and name come first.
func TestToolCallArguments(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{ToolCallShare: 1})
	body := chatBody("list the files", 5, true)
	body["min_tokens"] = 5
	body["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "f", "parameters": map[string]any{}}}}
	status, out := post(t, ts, "/v1/chat/completions", body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	var args, id, name string
	var p openai.Parser
	p.Feed(out)
	for ev, ok := p.Next(); ok; ev, ok = p.Next() {
		if ev.Done() {
			break
		}
		var ch openai.Chunk
		if err := json.Unmarshal(ev.Data, &ch); err != nil {
			t.Fatal(err)
		}
		for _, c := range ch.Choices {
			if c.Delta == nil {
				continue
			}
			for _, tc := range c.Delta.ToolCalls {
				args += tc.Function.Arguments
				id, name = id+tc.ID, name+tc.Function.Name
			}
		}
	}
	var obj map[string]string
	if err := json.Unmarshal([]byte(args), &obj); err != nil || id == "" || name != "f" {
		t.Errorf("arguments %q (%v), id %q, name %q", args, err, id, name)
	}
}
