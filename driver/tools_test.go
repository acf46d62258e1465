package driver

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"surge/trace"
)

// testToolSet is a session's tool set of one definition.
func testToolSet() *trace.ToolSet {
	return &trace.ToolSet{ID: 7, Tokens: 50, Count: 1, Choice: "required", Parallel: true,
		Tools: []trace.Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}}}
}

// TestToolsSent checks that every turn of a session with a tool set sends
// its definitions, choice and parallel flag, for each API that takes them.
func TestToolsSent(t *testing.T) {
	t.Parallel()
	for _, api := range []string{"chat", "responses", "messages"} {
		synctest.Test(t, func(t *testing.T) {
			h, ss := openTrace([]int64{0}, []int{1})
			ss[0].API, ss[0].Tools = api, testToolSet()
			f := &fake{}
			_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f}, h, ss), f)
			req := f.reqs[0]
			if r := out.recs[0]; r.ToolSchemaTokens != 50 || r.ServerToolCalls != 1 || r.ToolCallChunks != 1 || r.TTFTCUS != r.E2EUS || r.TTFTCUS <= r.TTFTUS {
				t.Errorf("%s: record tool schema %d, calls %d over %d chunks, ttftc %d (ttft %d, e2e %d)", api, r.ToolSchemaTokens, r.ServerToolCalls, r.ToolCallChunks, r.TTFTCUS, r.TTFTUS, r.E2EUS)
			}
			if len(req.Tools) != 1 || req.Tools[0].Name != "f" || string(req.Tools[0].Parameters) != `{"type":"object"}` ||
				req.ToolChoice != "required" || !req.ParallelToolCalls {
				t.Errorf("%s: sent tools %+v choice %q parallel %t", api, req.Tools, req.ToolChoice, req.ParallelToolCalls)
			}
		})
	}
}

// TestToolsRefused checks that a session's tools are refused on an API
// that cannot send them and when the trace holds no definitions.
func TestToolsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api  string
		edit func(*trace.ToolSet)
		want string
	}{
		{"completions", func(*trace.ToolSet) {}, "defines 1 tools, which only the chat, responses and messages apis send"},
		{"chat", func(ts *trace.ToolSet) { ts.Tools = nil }, "holds no definitions"},
	}
	for _, tt := range tests {
		h, ss := openTrace([]int64{0}, []int{1})
		ss[0].API, ss[0].Tools = tt.api, testToolSet()
		tt.edit(ss[0].Tools)
		if _, err := New(Config{Client: &fake{}}, h, ss); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.api, err, tt.want)
		}
	}
}
