package trace

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestToolSetValidate checks what a session's tool set must hold.
func TestToolSetValidate(t *testing.T) {
	t.Parallel()
	good := func() *ToolSet {
		return &ToolSet{ID: 1, Tokens: 100, Count: 1, Choice: "auto", Parallel: true,
			Tools: []Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}}}
	}
	tests := []struct {
		name string
		edit func(*ToolSet)
		want string
	}{
		{"good", func(*ToolSet) {}, ""},
		{"no text", func(ts *ToolSet) { ts.Tools = nil }, ""},
		{"no tools", func(ts *ToolSet) { ts.Count, ts.Tools = 0, nil }, "count 0"},
		{"too few tokens", func(ts *ToolSet) { ts.Tokens = 0 }, "0 tokens for 1 tools"},
		{"choice", func(ts *ToolSet) { ts.Choice = "any" }, `choice "any"`},
		{"count mismatch", func(ts *ToolSet) { ts.Count = 2 }, "1 definitions for a count of 2"},
		{"nameless", func(ts *ToolSet) { ts.Tools[0].Name = "" }, "no name"},
		{"bad parameters", func(ts *ToolSet) { ts.Tools[0].Parameters = json.RawMessage(`{`) }, "not JSON"},
	}
	for _, tt := range tests {
		ts := good()
		tt.edit(ts)
		s := Session{API: "chat", Tools: ts, Turns: []Turn{{InputTokens: 1, OutputTokens: 1}}}
		err := s.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}
