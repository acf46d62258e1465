package openai

import (
	"math/rand/v2"
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
}

// summarize parses and decodes a stream fed in the given pieces.
func summarize(t *testing.T, pieces ...[]byte) summary {
	t.Helper()
	s := summary{FirstToken: -1, FirstAnswer: -1}
	var p Parser
	handle := func(ev Event) {
		switch {
		case s.Done:
		case ev.Done():
			s.Done = true
		case ev.IsError():
			s.Error = ErrorText(ev.Data, 200)
		default:
			in, err := Decode(ev.Data)
			if err != nil {
				t.Fatalf("event %d: %v", s.Events, err)
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
			if in.Answer && s.FirstAnswer < 0 {
				s.FirstAnswer = s.Events
			}
			if in.FinishReason != "" {
				s.Finish = in.FinishReason
			}
			if in.HasUsage {
				s.Usage = in.Usage
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
		{"vllm_chat.sse", summary{Events: 6, Tokens: 3, FirstToken: 1, FirstAnswer: 1, Finish: "length", Usage: Usage{17, 4, 21}, Done: true},
			"role-only first delta, empty-content finish chunk, usage-only last chunk"},
		{"vllm_reasoning.sse", summary{Events: 7, Tokens: 5, Reasoning: 3, FirstToken: 1, FirstAnswer: 4, Finish: "stop", Usage: Usage{9, 7, 16}, Done: true},
			"reasoning_content before content: first token before first answer"},
		{"vllm_tools.sse", summary{Events: 6, Tokens: 3, FirstToken: 1, FirstAnswer: 1, Finish: "tool_calls", Usage: Usage{160, 21, 181}, Done: true},
			"tool-call deltas are answer tokens"},
		{"vllm_completions.sse", summary{Events: 5, Tokens: 4, FirstToken: 0, FirstAnswer: 0, Finish: "length", Usage: Usage{5, 4, 9}, Done: true},
			"completions text with null usage until the last chunk"},
		{"sglang_chat.sse", summary{Events: 6, Tokens: 3, Reasoning: 1, FirstToken: 1, FirstAnswer: 2, Finish: "stop", Usage: Usage{12, 4, 16}, Done: true},
			"SGLang nulls everywhere"},
		{"llamacpp_chat.sse", summary{Events: 5, Tokens: 3, FirstToken: 1, FirstAnswer: 1, Finish: "stop", Usage: Usage{11, 3, 14}, Done: true},
			"llama-server usage and timings in the finish chunk"},
		{"llamacpp_error.sse", summary{Events: 3, Tokens: 1, FirstToken: 1, FirstAnswer: 1, Error: `Failed to parse input at pos 4: {"na`, Done: true},
			"llama-server error event inside a 200 stream"},
		{"llamacpp_error_field.sse", summary{FirstToken: -1, FirstAnswer: -1, Error: "the request exceeds the available context size, try increasing it", Done: true},
			"llama-server error: field"},
		{"openai_chat.sse", summary{Events: 5, Tokens: 2, FirstToken: 1, FirstAnswer: 1, Finish: "stop", Usage: Usage{8, 9, 17}, Done: true},
			"OpenAI role-first delta with refusal null, usage-only final chunk"},
		{"openrouter_reasoning.sse", summary{Events: 4, Tokens: 3, Reasoning: 2, FirstToken: 0, FirstAnswer: 2, Finish: "stop", Usage: Usage{14, 6, 20}, Done: true},
			"comments, reasoning field, usage in the finish chunk"},
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
			if got := summarize(t, s); got != tt.want {
				t.Errorf("%s (%s, %s):\n got %+v\nwant %+v", tt.reason, tt.file, ending, got, tt.want)
			}
			if got := summarize(t, bytewise(s)...); got != tt.want {
				t.Errorf("%s (%s, %s, byte by byte): got %+v", tt.reason, tt.file, ending, got)
			}
			if got := summarize(t, randomPieces(r, s, 100)...); got != tt.want {
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
			got, err := Decode(ev.Data)
			want, rerr := refDecode(ev.Data)
			if err != nil || rerr != nil || got != want {
				t.Errorf("%s: %s\nDecode    %+v %v\nreference %+v %v", name, ev.Data, got, err, want, rerr)
			}
		}
	}
}
