package trace

import (
	"encoding/json"
	"fmt"
)

// ToolSet is the tool definitions every turn of a session sends and how
// the model may use them.
type ToolSet struct {
	// ID identifies the set across the trace: equal ids are equal sets
	// (a set shared by the workload or a client), so sets can be told
	// apart without their text.
	ID uint64 `json:"id"`
	// Tokens is the sum, over the definitions, of the tokens of each one's
	// compact JSON ({"name":…,"description":…,"parameters":…}) for the
	// trace's tokenizer. What an API's wrapping and a server's chat
	// template add is not in it, nor is it in any turn's InputTokens.
	Tokens int `json:"tokens"`
	Count  int `json:"count"`
	// Choice is the tool_choice sent: "auto", "required" or "none".
	Choice string `json:"choice"`
	// Parallel is parallel_tool_calls.
	Parallel bool `json:"parallel"`
	// Tools are the definitions; absent from a trace without text.
	Tools []Tool `json:"tools,omitempty"`
}

// Tool is one function definition of a tool set.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// toolChoices are the tool_choice values a trace may hold.
var toolChoices = map[string]bool{"auto": true, "required": true, "none": true}

// validate checks a tool set of a session read from a trace.
func (ts *ToolSet) validate() error {
	switch {
	case ts.Count < 1 || ts.Count > MaxTools:
		return fmt.Errorf("tools: count %d is not in 1..%d", ts.Count, MaxTools)
	case ts.Tokens < ts.Count:
		return fmt.Errorf("tools: %d tokens for %d tools; each definition takes at least one", ts.Tokens, ts.Count)
	case !toolChoices[ts.Choice]:
		return fmt.Errorf("tools: choice %q is not auto, required or none", ts.Choice)
	case len(ts.Tools) != 0 && len(ts.Tools) != ts.Count:
		return fmt.Errorf("tools: %d definitions for a count of %d", len(ts.Tools), ts.Count)
	}
	for i, t := range ts.Tools {
		if t.Name == "" {
			return fmt.Errorf("tools[%d]: no name", i)
		}
		if !json.Valid(t.Parameters) {
			return fmt.Errorf("tools[%d] (%s): parameters are not JSON", i, t.Name)
		}
	}
	return nil
}

// MaxTools bounds the tools of one set a trace may hold.
const MaxTools = 512
