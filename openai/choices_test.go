package openai

import (
	"slices"
	"testing"
)

// TestDecodeChoices checks which choices of an event DecodeChoices names
// as carrying a token: by their index member wherever it stands, not the
// ones with only a role or a finish reason, an index out of range as -1,
// and choice 0 for the APIs with one choice.
func TestDecodeChoices(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		api, data string
		want      []int
	}{
		{"chat", `{"choices":[{"index":1,"delta":{"content":"a"}}]}`, []int{1}},
		{"chat", `{"choices":[{"delta":{"content":"a"},"index":2}]}`, []int{2}},
		{"chat", `{"choices":[{"index":0,"delta":{"role":"assistant","content":""}},{"index":1,"delta":{"reasoning_content":"r"}}]}`, []int{1}},
		{"chat", `{"choices":[{"index":3,"delta":{},"finish_reason":"stop"}]}`, nil},
		{"completions", `{"choices":[{"index":0,"text":"a"},{"index":1,"text":"b"}]}`, []int{0, 1}},
		{"completions", `{"choices":[{"index":900,"text":"a"},{"index":-2,"text":"b"}]}`, []int{-1, -1}},
		{"chat", `{"choices":[{"index":1,"message":{"content":"x"}},{"index":0,"message":{"content":"y"}}]}`, []int{1, 0}},
		{"messages", `{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"a"}}`, []int{0}},
		{"chat", `{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}`, nil},
	} {
		_, got, err := DecodeChoices(tt.api, []byte(tt.data), nil)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: %v, %v; want %v", tt.api, tt.data, got, err, tt.want)
		}
	}
}
