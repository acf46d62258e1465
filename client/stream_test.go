package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"surge/openai"
)

func TestStreamTimes(t *testing.T) {
	t.Parallel()
	// The server notes the time before writing each event; on one clock,
	// the client cannot have read an event before it was written. Gaps of
	// 20 ms separate the role chunk, the reasoning and the answer.
	var role, reasoning, answer, done time.Time
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		role = time.Now()
		s.send(roleChunk())
		time.Sleep(20 * time.Millisecond)
		reasoning = time.Now()
		s.send(reasoningChunk("Let me think"))
		s.send(reasoningChunk("..."))
		time.Sleep(20 * time.Millisecond)
		answer = time.Now()
		s.send(contentChunk("Hi"))
		s.send(contentChunk("!"))
		s.send(finishChunk("stop"))
		s.send(usageChunk(7, 4))
		done = time.Now()
		s.send("[DONE]")
	})
	res := c.Do(context.Background(), chatReq())
	checkOK(t, res)
	if res.Status != 200 || res.Chunks != 4 || len(res.TokenTimes) != 4 {
		t.Fatalf("status %d, chunks %d, %d token times; want 200, 4, 4", res.Status, res.Chunks, len(res.TokenTimes))
	}
	order := []struct {
		earlier, later time.Time
		what           string
	}{
		{res.Sent, res.FirstByte, "Sent ≤ FirstByte"},
		{role, res.FirstByte, "role chunk written ≤ FirstByte"},
		{reasoning, res.FirstToken, "reasoning written ≤ FirstToken"},
		{answer, res.FirstAnswer, "answer written ≤ FirstAnswer"},
		{done, res.Last, "[DONE] written ≤ Last"},
		// Only ≤ here, though 20 ms separate the writes: a reader delayed
		// by the machine's load can get two events in one Read, and they
		// then share its time. That the role chunk is no token and that
		// reasoning comes first is checked by identity below.
		{res.FirstByte, res.FirstToken, "FirstByte ≤ FirstToken"},
		{res.FirstToken, res.FirstAnswer, "FirstToken ≤ FirstAnswer"},
		{res.FirstAnswer, res.Last, "FirstAnswer ≤ Last"},
	}
	for _, o := range order {
		if o.earlier.IsZero() || o.later.IsZero() || o.later.Before(o.earlier) {
			t.Errorf("%s: %v then %v", o.what, o.earlier, o.later)
		}
	}
	// Equal, not ==: token times after the first carry the instant's
	// monotonic reading but a derived wall clock (see ticks.times).
	if !res.TokenTimes[0].Equal(res.FirstToken) || !res.TokenTimes[2].Equal(res.FirstAnswer) || !slices.IsSortedFunc(res.TokenTimes, time.Time.Compare) {
		t.Errorf("token times %v: must be ordered, start at FirstToken and reach FirstAnswer at the third", res.TokenTimes)
	}
	if res.FinishReason != "stop" || res.PromptTokens != 7 || res.CompletionTokens != 4 {
		t.Errorf("finish %q usage %d/%d, want stop 7/4 from the usage-only final chunk", res.FinishReason, res.PromptTokens, res.CompletionTokens)
	}
}

func TestStreamOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body       string
		class      string
		errHas     string
		chunks     int
		completion int
		reason     string
	}{
		{"data: " + contentChunk("a") + "\n\ndata: " + finishChunk("length") + "\n\ndata: " + usageChunk(3, 1) + "\n\ndata: [DONE]\n\n",
			"", "", 1, 1, "complete stream"},
		{"data: " + contentChunk("a") + "\n\ndata: {\"error\":{\"code\":500,\"message\":\"Failed to parse input\",\"type\":\"server_error\"}}\n\ndata: [DONE]\n\n",
			"stream", "Failed to parse input", 1, 0, "llama-server error event in a 200 stream"},
		{"error: {\"code\":400,\"message\":\"the request exceeds the available context size\"}\n\ndata: [DONE]\n\n",
			"stream", "exceeds the available context size", 0, 0, "llama-server error field"},
		{"data: " + contentChunk("a") + "\n\nevent: error\ndata: {\"message\":\"overloaded\"}\n\n",
			"stream", "overloaded", 1, 0, "standard error event"},
		{"data: " + contentChunk("a") + "\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"\n\n",
			"stream", "malformed stream data", 1, 0, "truncated JSON"},
		{"data: " + contentChunk("a") + "\n\n",
			"stream", "without [DONE] or finish_reason", 1, 0, "stream ends cleanly without an end"},
		{"data: " + contentChunk("a") + "\n\ndata: " + finishChunk("stop") + "\n\n",
			"", "", 1, 0, "finish_reason without [DONE] is complete"},
		{"data: " + contentChunk("a") + "\n\ndata: [DONE]",
			"", "", 1, 0, "[DONE] without its blank line"},
		{": ping\n\nevent: ping\ndata: not json\n\ndata: " + contentChunk("a") + "\n\ndata: [DONE]\n\ndata: {garbage after done\n\n",
			"", "", 1, 0, "comments, other event types and data after [DONE] are ignored"},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			startSSE(w).raw(tt.body)
		})
		res := c.Do(context.Background(), chatReq())
		if res.ErrClass != tt.class || !contains(res.Err, tt.errHas) {
			t.Errorf("%s: class %q err %q, want class %q containing %q", tt.reason, res.ErrClass, res.Err, tt.class, tt.errHas)
		}
		if res.Status != 200 || res.Chunks != tt.chunks || res.CompletionTokens != tt.completion {
			t.Errorf("%s: status %d chunks %d completion %d, want 200 %d %d", tt.reason, res.Status, res.Chunks, res.CompletionTokens, tt.chunks, tt.completion)
		}
	}
}

func TestToolCallsAreAnswers(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		s.send(roleChunk())
		s.send(`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_1","type":"function","index":0,"function":{"name":"get_weather"}}]},"finish_reason":null}]}`)
		s.send(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`)
		s.send("[DONE]")
	})
	res := c.Do(context.Background(), chatReq())
	checkOK(t, res)
	if res.Chunks != 2 || res.FirstAnswer.IsZero() || res.FirstAnswer != res.FirstToken || res.FinishReason != "tool_calls" {
		t.Errorf("chunks %d, first answer %v, finish %q: tool-call deltas must be answer tokens", res.Chunks, res.FirstAnswer, res.FinishReason)
	}
}

func TestNonStreaming(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api, body, finish  string
		reasoning          bool
		prompt, completion int
		reason             string
	}{
		{"chat", `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hello!"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}`,
			"stop", false, 5, 3, "chat response"},
		{"completions", `{"object":"text_completion","choices":[{"index":0,"text":" far away","finish_reason":"length"}],"usage":{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}}`,
			"length", false, 4, 2, "completions response"},
		{"chat", `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning_content":"hm"},"finish_reason":"length"}]}`,
			"length", true, 0, 0, "reasoning only: no answer"},
	}
	for _, tt := range tests {
		var path string
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			path = r.URL.Path
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, tt.body)
		})
		res := c.Do(context.Background(), &Request{API: tt.api, Model: "m", Prompt: "x"})
		checkOK(t, res)
		if want, _ := openai.Path(tt.api); path != want {
			t.Errorf("%s: path %q, want %q", tt.reason, path, want)
		}
		if res.Chunks != 1 || res.FirstToken != res.Last || res.Last.IsZero() || !slices.Equal(res.TokenTimes, []time.Time{res.Last}) {
			t.Errorf("%s: chunks %d, FirstToken %v, Last %v: the whole body is one token event", tt.reason, res.Chunks, res.FirstToken, res.Last)
		}
		if answered := !res.FirstAnswer.IsZero(); answered == tt.reasoning {
			t.Errorf("%s: FirstAnswer set = %v", tt.reason, answered)
		}
		if res.FinishReason != tt.finish || res.PromptTokens != tt.prompt || res.CompletionTokens != tt.completion {
			t.Errorf("%s: finish %q usage %d/%d", tt.reason, res.FinishReason, res.PromptTokens, res.CompletionTokens)
		}
	}
}

func TestRequestBody(t *testing.T) {
	t.Parallel()
	temp, topP := 0.0, 0.9
	tests := []struct {
		req    Request
		path   string
		want   map[string]any
		reason string
	}{
		{Request{API: "chat", Model: "m", Prompt: "Hi \"you\"", MaxTokens: 8, Stream: true}, "/v1/chat/completions",
			map[string]any{"model": "m", "messages": []any{map[string]any{"role": "user", "content": "Hi \"you\""}}, "max_tokens": 8.0,
				"stream": true, "stream_options": map[string]any{"include_usage": true}},
			"streaming chat asks for usage; unset fields are omitted"},
		{Request{API: "completions", Model: "m", Prompt: "Once", MaxTokens: 4, MinTokens: 4, IgnoreEOS: true, Temperature: &temp, TopP: &topP}, "/v1/completions",
			map[string]any{"model": "m", "prompt": "Once", "max_tokens": 4.0, "min_tokens": 4.0, "ignore_eos": true, "temperature": 0.0, "top_p": 0.9},
			"completions with every setting; zero temperature is sent"},
	}
	for _, tt := range tests {
		var got map[string]any
		var path, auth, ctype string
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			path, auth, ctype = r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type")
			json.NewDecoder(r.Body).Decode(&got)
			startSSE(w).raw("data: " + finishChunk("stop") + "\n\ndata: [DONE]\n\n")
		})
		checkOK(t, c.Do(context.Background(), &tt.req))
		if path != tt.path || auth != "" || ctype != "application/json" {
			t.Errorf("%s: path %q auth %q content type %q", tt.reason, path, auth, ctype)
		}
		if !jsonEqual(got, tt.want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.reason, got, tt.want)
		}
	}
}

// jsonEqual compares decoded JSON values.
func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestStreamSplitAnywhere(t *testing.T) {
	t.Parallel()
	body := "data: " + roleChunk() + "\r\n\r\n: keep-alive\r\n\r\ndata: " + reasoningChunk("é\n") + "\r\n\r\n"
	for i := range 5 {
		body += "data: " + contentChunk(fmt.Sprint("tok", i)) + "\r\n\r\n"
	}
	body += "data: " + finishChunk("length") + "\r\n\r\ndata: " + usageChunk(9, 6) + "\r\n\r\ndata: [DONE]\r\n\r\n"
	tests := []struct {
		piece  int
		reason string
	}{
		{len(body), "one write"},
		{1, "one byte per flush"},
		{7, "pieces of 7 bytes"},
		{150, "pieces of 150 bytes"},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, inPieces(body, tt.piece))
		res := c.Do(context.Background(), chatReq())
		checkOK(t, res)
		if res.Chunks != 6 || res.FinishReason != "length" || res.PromptTokens != 9 || res.CompletionTokens != 6 ||
			!res.FirstToken.Before(res.Last.Add(1)) || !slices.IsSortedFunc(res.TokenTimes, time.Time.Compare) {
			t.Errorf("%s: chunks %d finish %q usage %d/%d", tt.reason, res.Chunks, res.FinishReason, res.PromptTokens, res.CompletionTokens)
		}
	}
}

// TestStreamLongEvent sends an event far longer than the read buffer, one
// data line of 100 KB of text, in pieces of several sizes: the parser
// carries the line over between reads, whatever its length, and the
// events around it are read as usual.
func TestStreamLongEvent(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789", 10_000)
	body := "data: " + roleChunk() + "\n\ndata: " + contentChunk(long) + "\n\ndata: " + contentChunk("!") + "\n\n" +
		"data: " + finishChunk("length") + "\n\ndata: [DONE]\n\n"
	tests := []struct {
		piece  int
		reason string
	}{
		{len(body), "one write: the line spans many reads"},
		{readBufSize - 1, "pieces just under the read buffer: line ends fall anywhere"},
		{readBufSize + 1, "pieces just over it"},
		{1000, "pieces of 1000 bytes"},
		{7, "pieces of 7 bytes"},
	}
	for _, tt := range tests {
		c, _ := serve(t, Config{}, inPieces(body, tt.piece))
		req := chatReq()
		req.KeepText = true
		res := c.Do(context.Background(), req)
		checkOK(t, res)
		if res.Chunks != 2 || len(res.TokenTimes) != 2 || res.FinishReason != "length" || res.Text != long+"!" {
			t.Errorf("%s: chunks %d, %d token times, finish %q, %d bytes of text; want 2, 2, length, %d",
				tt.reason, res.Chunks, len(res.TokenTimes), res.FinishReason, len(res.Text), len(long)+1)
		}
	}
}

// TestLongResponseHeader reads a response whose header line is several
// times net/http's per-connection read buffer (connBufSize).
func TestLongResponseHeader(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("h", 8*connBufSize)
	c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Long", long)
		s := startSSE(w)
		s.send(contentChunk("a"))
		s.send(finishChunk("stop"))
		s.send("[DONE]")
	})
	res := c.Do(context.Background(), chatReq())
	checkOK(t, res)
	if res.Chunks != 1 || res.FinishReason != "stop" {
		t.Errorf("chunks %d finish %q, want 1 stop", res.Chunks, res.FinishReason)
	}
}

// inPieces is a handler that streams body in writes of piece bytes, each
// flushed.
func inPieces(body string, piece int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		for b := body; len(b) > 0; {
			n := min(piece, len(b))
			s.raw(b[:n])
			b = b[n:]
		}
	}
}
