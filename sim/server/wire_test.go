package server

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"surge/openai"
)

// TestWholeResponseShape checks the members of whole responses, written
// with openai's wire types, against the shape the server has always
// written: vLLM's, with null logprobs, prompt_tokens_details and
// surge_timings; reasoning_content only when there is reasoning.
func TestWholeResponseShape(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	chat := chatBody("hello there", 3, false)
	reasoning := chatBody("hello there", 3, false)
	reasoning["surge_reasoning_tokens"] = 2
	completion := map[string]any{"model": testModel, "prompt": "hello there", "max_tokens": 3}
	tests := []struct {
		name, path string
		body       map[string]any
		object     string
		choiceKeys []string
		messageKey []string
	}{
		{"chat", openai.ChatPath, chat, "chat.completion", []string{"finish_reason", "index", "logprobs", "message"}, []string{"content", "role"}},
		{"chat with reasoning", openai.ChatPath, reasoning, "chat.completion", []string{"finish_reason", "index", "logprobs", "message"}, []string{"content", "reasoning_content", "role"}},
		{"completions", openai.CompletionsPath, completion, "text_completion", []string{"finish_reason", "index", "logprobs", "text"}, nil},
	}
	for _, tt := range tests {
		code, body := post(t, ts, tt.path, tt.body)
		if code != 200 {
			t.Fatalf("%s: status %d: %s", tt.name, code, body)
		}
		var r struct {
			Object  string                       `json:"object"`
			Choices []map[string]json.RawMessage `json:"choices"`
			Usage   map[string]json.RawMessage   `json:"usage"`
			Timings map[string]float64           `json:"surge_timings"`
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(body, &r); err != nil || json.Unmarshal(body, &top) != nil || len(r.Choices) != 1 {
			t.Fatalf("%s: %s: %v", tt.name, body, err)
		}
		if got := keys(top); !reflect.DeepEqual(got, []string{"choices", "created", "id", "model", "object", "surge_timings", "usage"}) || r.Object != tt.object {
			t.Errorf("%s: members %v, object %q", tt.name, got, r.Object)
		}
		c := r.Choices[0]
		if got := keys(c); !reflect.DeepEqual(got, tt.choiceKeys) || string(c["logprobs"]) != "null" || string(c["finish_reason"]) != `"length"` {
			t.Errorf("%s: choice %s, want members %v with null logprobs", tt.name, body, tt.choiceKeys)
		}
		if tt.messageKey != nil {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(c["message"], &m); err != nil || !reflect.DeepEqual(keys(m), tt.messageKey) {
				t.Errorf("%s: message %s, want members %v", tt.name, c["message"], tt.messageKey)
			}
		}
		if got := keys(r.Usage); !reflect.DeepEqual(got, []string{"completion_tokens", "prompt_tokens", "prompt_tokens_details", "total_tokens"}) ||
			string(r.Usage["prompt_tokens_details"]) != `{"cached_tokens":0}` {
			t.Errorf("%s: usage %s", tt.name, body)
		}
		if len(r.Timings) != 3 || r.Timings["e2e_ms"] <= 0 {
			t.Errorf("%s: surge_timings %v", tt.name, r.Timings)
		}
	}
}

// keys returns m's keys in order.
func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
