package spec

import (
	"github.com/goccy/go-yaml/ast"

	"surge/dist"
)

// ToolSet is the tool definitions an agent sends with every call: Count
// tools, each a definition of Schema tokens (sampled once per tool), in
// one set for the whole workload, one per client or one per session.
type ToolSet struct {
	Count  int
	Schema dist.Dist // tokens of each tool's definition
	Scope  string    // ToolScopeShared, ToolScopeClient or ToolScopeSession
	// Choice is the tool_choice sent: ToolChoiceAuto, ToolChoiceRequired
	// or ToolChoiceNone.
	Choice string
	// Parallel is parallel_tool_calls: whether the server may return
	// several tool calls in one reply.
	Parallel bool
}

// The scopes of a tool set: who shares one set of definitions.
const (
	ToolScopeShared  = "shared"
	ToolScopeClient  = "client"
	ToolScopeSession = "session"
)

// The tool choices an agent may send.
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceRequired = "required"
	ToolChoiceNone     = "none"
)

// MinToolSchema is the fewest tokens a tool's definition may take: its
// JSON skeleton (name, an empty description and parameters) fits in it
// for every tokenizer surge ships.
const MinToolSchema = 40

// MaxTools bounds a tool set's count.
const MaxTools = 512

// toolSetKeys are the keys of an agent's tool_set block.
var toolSetKeys = []string{"count", "schema", "scope", "choice", "parallel"}

// toolSet reads an agent's tool_set block.
func (d *decoder) toolSet(n ast.Node, path string) *ToolSet {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, toolSetKeys, "tool_set")
	ts := &ToolSet{Scope: ToolScopeShared, Choice: ToolChoiceAuto, Parallel: true}
	if requireField(d, o, "count", "the tools defined in every call, like count: 8", d.count, &ts.Count) {
		d.countIn(o, "count", ts.Count, MaxTools, "spec.MaxTools", 0, "")
	}
	ts.Schema = d.lengths(o, "schema", "tokens of each tool's definition, like schema: 150 or {dist: lognormal, median: 200, sigma: 0.5}")
	if q, ok := ts.Schema.(dist.Quantiler); ok && q.Quantile(0) < MinToolSchema {
		d.check(o, "schema", true, "schema (%s) may fall below %d tokens, the least a tool definition's JSON takes; give it min: %d", ts.Schema, MinToolSchema, MinToolSchema)
	}
	field(o, "scope", d.choice("tool_set scope", []string{ToolScopeShared, ToolScopeClient, ToolScopeSession}), &ts.Scope)
	field(o, "choice", d.choice("tool choice", []string{ToolChoiceAuto, ToolChoiceRequired, ToolChoiceNone}), &ts.Choice)
	field(o, "parallel", d.boolean, &ts.Parallel)
	return ts
}
