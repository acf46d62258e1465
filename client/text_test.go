package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"surge/openai"
)

// textStream is a stream with reasoning, escaped and non-ASCII answer text
// (a surrogate pair among it), a tool call, an n=2 choice and usage.
var textStream = strings.Join([]string{
	roleChunk(),
	reasoningChunk("The user says hi."),
	`{"choices":[{"index":0,"delta":{"reasoning_content":"\nReply \"warmly\"."}}]}`,
	contentChunk("Hello"),
	`{"choices":[{"index":1,"delta":{"content":" from choice 1"}}]}`,
	`{"choices":[{"index":0,"delta":{"content":", caf\u00e9 \ud83d\ude00\n"}}]}`,
	`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{}"}}]}}]}`,
	finishChunk("stop"),
	usageChunk(5, 6),
	"[DONE]",
}, "\n\ndata: ")

func TestKeepText(t *testing.T) {
	t.Parallel()
	const answer, reasoning = "Hello, café 😀\n", "The user says hi.\nReply \"warmly\"."
	tests := []struct {
		api, ctype, body  string
		stream, keep      bool
		answer, reasoning string
		class             string
		reason            string
	}{
		{"chat", "text/event-stream", "data: " + textStream + "\n\n", true, true, answer, reasoning, "",
			"stream: answer and reasoning of choice 0, unescaped; tool call and choice 1 not text"},
		{"chat", "text/event-stream", "data: " + textStream + "\n\n", true, false, "", "", "",
			"stream without KeepText builds no text"},
		{"chat", "application/json",
			`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","reasoning_content":"Think \"twice\".","content":"Line 1\nLine 2 \u2014 done"},"finish_reason":"stop"}]}`,
			false, true, "Line 1\nLine 2 — done", `Think "twice".`, "", "whole chat response"},
		{"completions", "application/json",
			`{"object":"text_completion","choices":[{"index":0,"text":" far\taway","finish_reason":"length"}]}`,
			false, true, " far\taway", "", "", "whole completions response"},
		{"chat", "application/json",
			`{"choices":[{"index":0,"message":{"content":"kept?"},"finish_reason":"stop"}]}`,
			false, false, "", "", "", "whole response without KeepText builds no text"},
		{"chat", "text/event-stream",
			"data: " + contentChunk("partial") + "\n\ndata: {\"error\":{\"message\":\"engine died\"}}\n\n",
			true, true, "partial", "", "stream", "text before a stream error is kept"},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", tt.ctype)
			io.WriteString(w, tt.body)
		})
		req := &Request{API: tt.api, Model: "m", Prompt: "Hi", MaxTokens: 16, Stream: tt.stream, KeepText: tt.keep}
		// Twice on one client: the pooled text buffers must not carry
		// the first reply into the second.
		for i := range 2 {
			res := c.Do(context.Background(), req)
			if res.ErrClass != tt.class {
				t.Errorf("%s: class %q (%s), want %q", tt.reason, res.ErrClass, res.Err, tt.class)
			}
			if res.Text != tt.answer || res.Reasoning != tt.reasoning {
				t.Errorf("%s (request %d): text %q, reasoning %q; want %q, %q", tt.reason, i+1, res.Text, res.Reasoning, tt.answer, tt.reasoning)
			}
			if whole := tt.ctype == "application/json"; res.Whole != whole {
				t.Errorf("%s: Whole = %v, want %v", tt.reason, res.Whole, whole)
			}
		}
	}
}

func TestKeepTextStreamSplit(t *testing.T) {
	t.Parallel()
	// One byte per flush splits every escape and multi-byte rune across
	// reads; the parser must still hand DecodeText whole events.
	body := "data: " + textStream + "\n\n"
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		for i := range len(body) {
			s.raw(body[i : i+1])
		}
	})
	res := c.Do(context.Background(), &Request{API: "chat", Model: "m", Prompt: "Hi", Stream: true, KeepText: true})
	checkOK(t, res)
	if want := "Hello, café 😀\n"; res.Text != want {
		t.Errorf("text %q, want %q", res.Text, want)
	}
	if res.Chunks != 6 {
		t.Errorf("chunks %d, want 6: keeping text must not change the timing", res.Chunks)
	}
}

func TestMessages(t *testing.T) {
	t.Parallel()
	msgs := []openai.Message{
		{Role: "system", Content: "You are terse."},
		{Role: "user", Content: "Hi \"there\"\n"},
		{Role: "assistant", Content: "Hello, café 😀"},
		{Role: "user", Content: "And now?"},
	}
	tests := []struct {
		req    Request
		want   []openai.Message
		reason string
	}{
		{Request{API: "chat", Model: "m", Prompt: "ignored", Messages: msgs, Stream: true}, msgs,
			"messages sent in order with their roles; Prompt not sent"},
		{Request{API: "", Model: "m", Messages: msgs[:1]}, msgs[:1], "the empty api is chat"},
		{Request{API: "chat", Model: "m", Prompt: "Only me"}, []openai.Message{{Role: "user", Content: "Only me"}},
			"without Messages, Prompt is the user message"},
	}
	for _, tt := range tests {
		var got struct {
			Messages []openai.Message `json:"messages"`
			Prompt   *string          `json:"prompt"`
		}
		var raw []byte
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			raw, _ = io.ReadAll(r.Body)
			startSSE(w).raw("data: " + finishChunk("stop") + "\n\ndata: [DONE]\n\n")
		})
		checkOK(t, c.Do(context.Background(), &tt.req))
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: server got %q: %v", tt.reason, raw, err)
		}
		if !reflect.DeepEqual(got.Messages, tt.want) || got.Prompt != nil {
			t.Errorf("%s: server got messages %+v, prompt %v; want %+v and no prompt", tt.reason, got.Messages, got.Prompt, tt.want)
		}
		if strings.Contains(string(raw), "ignored") {
			t.Errorf("%s: Prompt sent alongside Messages: %s", tt.reason, raw)
		}
	}
}

func TestMessagesOnCompletions(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) { t.Error("request sent") })
	res := c.Do(context.Background(), &Request{API: "completions", Model: "m", Messages: []openai.Message{{Role: "user", Content: "x"}}})
	if res.ErrClass != "http" || res.Status != 0 || !contains(res.Err, "not messages") || !res.Sent.IsZero() {
		t.Errorf("got class %q status %d err %q sent %v; want an http error with status 0, nothing sent", res.ErrClass, res.Status, res.Err, res.Sent)
	}
}
