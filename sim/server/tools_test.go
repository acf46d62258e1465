package server

import (
	"context"
	"encoding/json"
	"testing"

	"surge/client"
	"surge/openai"
)

// TestToolCalls checks that a chat request defining tools gets, with a
// share of 1, a call of its first tool ending with finish_reason
// tool_calls whose argument tokens are its
// answer tokens, streamed or whole; that its definitions count as prompt
// tokens; and that a negative share gives text.
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
		for _, stream := range []bool{true, false} {
			base := client.Request{API: openai.APIChat, Model: testModel, Prompt: "list the files", MaxTokens: 4000, MinTokens: 6, Stream: stream, KeepText: true, ReasoningTokens: 2}
			plain := c.Do(context.Background(), &base)
			withTools := base
			withTools.Tools, withTools.ToolChoice, withTools.ParallelToolCalls = tools, "auto", true
			res := c.Do(context.Background(), &withTools)
			if res.ErrClass != "" || plain.ErrClass != "" {
				t.Fatalf("share %g, stream %t: %s %s / %s", share, stream, res.ErrClass, res.Err, plain.Err)
			}
			if res.PromptTokens <= plain.PromptTokens {
				t.Errorf("share %g: %d prompt tokens with tools, %d without: the definitions are prompt", share, res.PromptTokens, plain.PromptTokens)
			}
			wantCalls, wantChunks, finish := 1, res.CompletionTokens-2, "tool_calls"
			if share < 0 {
				wantCalls, wantChunks, finish = 0, 0, "stop"
			}
			if !stream && share > 0 {
				wantChunks = 1
			}
			if res.ToolCalls != wantCalls || res.ToolChunks != wantChunks || res.FinishReason != finish || res.CompletionTokens < 6 {
				t.Errorf("share %g, stream %t: %d calls over %d chunks, finish %q, %d tokens; want %d over %d, %q, at least 6",
					share, stream, res.ToolCalls, res.ToolChunks, res.FinishReason, res.CompletionTokens, wantCalls, wantChunks, finish)
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
