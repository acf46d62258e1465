package openai

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// summary is what a client learns from a whole stream.
type summary struct {
	Events      int // data events before [DONE]
	Tokens      int // token-bearing events
	Reasoning   int
	FirstToken  int // event index of the first token-bearing event, -1 if none
	FirstAnswer int // event index of the first answer event, -1 if none
	Finish      string
	Usage       Usage
	Error       string
	Done        bool
	Cached      int
	ToolEvents  int // events carrying tool-call tokens
	ToolCalls   int // tool calls started
	FirstTool   int // event index of the first tool-call event, -1 if none
}

// mergeUsage is u with the counts v has (non-zero) in their place, as a
// client keeps usage over the events of a stream.
func mergeUsage(u, v Usage) Usage {
	if v.PromptTokens != 0 {
		u.PromptTokens = v.PromptTokens
	}
	if v.CompletionTokens != 0 {
		u.CompletionTokens = v.CompletionTokens
	}
	if v.TotalTokens != 0 {
		u.TotalTokens = v.TotalTokens
	}
	return u
}

// fileAPI is the API of a test stream or body, by its file name.
func fileAPI(name string) string {
	switch {
	case strings.Contains(name, "responses"), strings.Contains(name, "response."):
		return APIResponses
	case strings.Contains(name, "messages"), strings.Contains(name, "anthropic"):
		return APIMessages
	case strings.Contains(name, "embeddings"):
		return APIEmbeddings
	case strings.Contains(name, "rerank"):
		return APIRerank
	case strings.Contains(name, "score"):
		return APIScore
	}
	return APIChat
}

// summarize parses and decodes a stream of api fed in the given pieces.
func summarize(t *testing.T, api string, pieces ...[]byte) summary {
	t.Helper()
	s := summary{FirstToken: -1, FirstAnswer: -1, FirstTool: -1}
	var p Parser
	handle := func(ev Event) {
		switch {
		case s.Done:
		case ev.Done():
			s.Done = true
		case ev.IsError():
			s.Error = ErrorText(ev.Data, 200)
		default:
			in, err := DecodeAPI(api, ev.Data)
			if err != nil {
				t.Fatalf("event %d: %v", s.Events, err)
			}
			if in.End {
				s.Done = true
			}
			if in.IsError {
				s.Error = in.ErrorMessage
			}
			if in.Token() {
				if s.FirstToken < 0 {
					s.FirstToken = s.Events
				}
				s.Tokens++
			}
			if in.Reasoning {
				s.Reasoning++
			}
			if in.ToolCall {
				if s.FirstTool < 0 {
					s.FirstTool = s.Events
				}
				s.ToolEvents++
			}
			s.ToolCalls += in.ToolCalls
			if in.Answer && s.FirstAnswer < 0 {
				s.FirstAnswer = s.Events
			}
			if in.FinishReason != "" {
				s.Finish = in.FinishReason
			}
			if in.HasUsage {
				s.Usage = mergeUsage(s.Usage, in.Usage)
				s.Cached = max(s.Cached, in.CachedTokens)
			}
			s.Events++
		}
	}
	for _, b := range pieces {
		p.Feed(b)
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			handle(ev)
		}
	}
	if ev, ok := p.Finish(); ok {
		handle(ev)
	}
	return s
}

func TestServerStreams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		want   summary
		reason string
	}{
		{"vllm_chat.sse", summary{FirstTool: -1, Events: 6, Tokens: 3, FirstToken: 1, FirstAnswer: 1, Finish: "length", Usage: Usage{17, 4, 21}, Done: true},
			"role-only first delta, empty-content finish chunk, usage-only last chunk"},
		{"vllm_reasoning.sse", summary{FirstTool: -1, Events: 7, Tokens: 5, Reasoning: 3, FirstToken: 1, FirstAnswer: 4, Finish: "stop", Usage: Usage{9, 7, 16}, Done: true},
			"reasoning_content before content: first token before first answer"},
		{"vllm_tools.sse", summary{FirstTool: 1, ToolEvents: 3, ToolCalls: 1, Events: 6, Tokens: 3, FirstToken: 1, FirstAnswer: 1, Finish: "tool_calls", Usage: Usage{160, 21, 181}, Done: true},
			"tool-call deltas are answer tokens: one call starts (its name), three events carry it"},
		{"vllm_completions.sse", summary{FirstTool: -1, Events: 5, Tokens: 4, FirstToken: 0, FirstAnswer: 0, Finish: "length", Usage: Usage{5, 4, 9}, Done: true},
			"completions text with null usage until the last chunk"},
		{"sglang_chat.sse", summary{FirstTool: -1, Events: 6, Tokens: 3, Reasoning: 1, FirstToken: 1, FirstAnswer: 2, Finish: "stop", Usage: Usage{12, 4, 16}, Done: true},
			"SGLang nulls everywhere"},
		{"llamacpp_chat.sse", summary{FirstTool: -1, Events: 5, Tokens: 3, FirstToken: 1, FirstAnswer: 1, Finish: "stop", Usage: Usage{11, 3, 14}, Done: true},
			"llama-server usage and timings in the finish chunk"},
		{"llamacpp_error.sse", summary{FirstTool: -1, Events: 3, Tokens: 1, FirstToken: 1, FirstAnswer: 1, Error: `Failed to parse input at pos 4: {"na`, Done: true},
			"llama-server error event inside a 200 stream"},
		{"llamacpp_error_field.sse", summary{FirstTool: -1, FirstToken: -1, FirstAnswer: -1, Error: "the request exceeds the available context size, try increasing it", Done: true},
			"llama-server error: field"},
		{"openai_chat.sse", summary{FirstTool: -1, Events: 5, Tokens: 2, FirstToken: 1, FirstAnswer: 1, Finish: "stop", Usage: Usage{8, 9, 17}, Done: true},
			"OpenAI role-first delta with refusal null, usage-only final chunk"},
		{"openrouter_reasoning.sse", summary{FirstTool: -1, Events: 4, Tokens: 3, Reasoning: 2, FirstToken: 0, FirstAnswer: 2, Finish: "stop", Usage: Usage{14, 6, 20}, Done: true},
			"comments, reasoning field, usage in the finish chunk"},
		{"openai_responses.sse", summary{FirstTool: -1, Events: 11, Tokens: 3, FirstToken: 4, FirstAnswer: 4, Finish: "stop", Usage: Usage{37, 11, 48}, Done: true},
			"Responses API: only output_text deltas are tokens, not the done events repeating the text; response.completed ends it"},
		{"openai_responses_tools.sse", summary{FirstTool: 7, ToolEvents: 3, ToolCalls: 1, Events: 13, Tokens: 5, Reasoning: 2, FirstToken: 3, FirstAnswer: 7, Finish: "tool_calls", Usage: Usage{291, 150, 441}, Done: true, Cached: 256},
			"Responses API: reasoning summary deltas, a function call's start and argument deltas"},
		{"openai_responses_incomplete.sse", summary{FirstTool: -1, Events: 5, Tokens: 2, FirstToken: 2, FirstAnswer: 2, Finish: "length", Usage: Usage{12, 2, 14}, Done: true},
			"Responses API: response.incomplete for max_output_tokens"},
		{"openai_responses_error.sse", summary{FirstTool: -1, Events: 2, Tokens: 1, FirstToken: 1, FirstAnswer: 1, Error: "The server had an error while processing your request."},
			"Responses API: an error event"},
		{"llmd_responses.sse", summary{FirstTool: -1, Events: 11, Tokens: 3, FirstToken: 4, FirstAnswer: 4, Finish: "stop", Usage: Usage{8, 3, 11}, Done: true},
			"llm-d-inference-sim's Responses stream, captured"},
		{"anthropic_messages.sse", summary{FirstTool: -1, Events: 8, Tokens: 2, FirstToken: 3, FirstAnswer: 3, Finish: "stop", Usage: Usage{2073, 15, 0}, Done: true, Cached: 2048},
			"Messages API: text deltas, ping, cumulative usage, cache reads part of the prompt"},
		{"anthropic_thinking_tools.sse", summary{FirstTool: 9, ToolEvents: 3, ToolCalls: 1, Events: 16, Tokens: 6, Reasoning: 2, FirstToken: 2, FirstAnswer: 7, Finish: "tool_calls", Usage: Usage{472, 89, 0}, Done: true},
			"Messages API: thinking deltas, a signature and an empty input delta (no tokens), a tool_use block and its input deltas"},
		{"anthropic_error.sse", summary{FirstTool: -1, Events: 3, Tokens: 1, FirstToken: 2, FirstAnswer: 2, Usage: Usage{10, 1, 0}, Error: "Overloaded"},
			"Messages API: an overloaded error event"},
		{"llmd_tools.sse", summary{FirstTool: 1, ToolEvents: 9, ToolCalls: 1, Events: 11, Tokens: 9, FirstToken: 1, FirstAnswer: 1, Finish: "tool_calls", Usage: Usage{9, 12, 21}, Done: true},
			"llm-d-inference-sim's tool-call stream, captured: the id on every delta, the name on the first"},
		{"llmd_messages.sse", summary{FirstTool: -1, Events: 9, Tokens: 3, FirstToken: 3, FirstAnswer: 3, Finish: "length", Usage: Usage{8, 3, 0}, Done: true},
			"llm-d-inference-sim's Messages stream, captured"},
	}
	files := streamFiles(t)
	if len(files) != len(tests) {
		t.Errorf("%d test streams but %d expectations", len(files), len(tests))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, tt := range tests {
		b, ok := files[tt.file]
		if !ok {
			t.Fatalf("missing testdata/%s", tt.file)
		}
		for ending, s := range lineEndings(b) {
			api := fileAPI(tt.file)
			if got := summarize(t, api, s); got != tt.want {
				t.Errorf("%s (%s, %s):\n got %+v\nwant %+v", tt.reason, tt.file, ending, got, tt.want)
			}
			if got := summarize(t, api, bytewise(s)...); got != tt.want {
				t.Errorf("%s (%s, %s, byte by byte): got %+v", tt.reason, tt.file, ending, got)
			}
			if got := summarize(t, api, randomPieces(r, s, 100)...); got != tt.want {
				t.Errorf("%s (%s, %s, random pieces): got %+v", tt.reason, tt.file, ending, got)
			}
		}
	}
}

func TestStreamChunksMatchReference(t *testing.T) {
	t.Parallel()
	for name, b := range streamFiles(t) {
		var p Parser
		p.Feed(b)
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			if ev.Done() || ev.IsError() {
				continue
			}
			got, err := DecodeAPI(fileAPI(name), ev.Data)
			want, rerr := refDecodeAPI(fileAPI(name), ev.Data)
			if err != nil || rerr != nil || got != want {
				t.Errorf("%s: %s\nDecode    %+v %v\nreference %+v %v", name, ev.Data, got, err, want, rerr)
			}
		}
	}
}
