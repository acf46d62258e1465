package workload

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strconv"
	"unicode/utf8"

	"surge/content"

	"surge/openai"
	"surge/spec"
	"surge/trace"
)

// toolStream labels the generators of tool sets, apart from those of
// sessions, arrivals and system prompts.
const toolStream uint64 = 0x746f6f6c // "tool"

// Words tool names and parameters are made of.
var (
	toolVerbs  = []string{"get", "list", "search", "read", "write", "update", "create", "delete", "run", "fetch", "find", "check"}
	toolNouns  = []string{"file", "issue", "record", "page", "user", "order", "table", "log", "job", "report", "branch", "ticket"}
	toolParams = []struct{ name, typ string }{
		{"path", "string"}, {"query", "string"}, {"id", "integer"}, {"limit", "integer"},
		{"recursive", "boolean"}, {"content", "string"}, {"offset", "integer"}, {"force", "boolean"},
	}
)

// toolSetID identifies the tool set a session of client c uses: one for
// every client with the same tool_set block when shared, one per client,
// or one per session.
func (g *Generator) toolSetID(c *client, index int) uint64 {
	ts := c.Session.Agent.ToolSet
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %q %s %t", ts.Count, ts.Schema, ts.Choice, ts.Parallel)
	id := mix(g.spec.Seed ^ toolStream ^ mix(h.Sum64()))
	switch ts.Scope {
	case spec.ToolScopeClient:
		id = mix(id ^ c.key)
	case spec.ToolScopeSession:
		id = mix(id ^ mix(c.key^mix(uint64(index))))
	}
	return id & (1<<53 - 1) // exact as a JSON number in every reader
}

// tools returns the tool set session index of client c sends, nil when
// its client has none. Shared and per-client sets are built once.
func (b *builder) tools(c *client, index int) (*trace.ToolSet, error) {
	if c.Session.Agent == nil || c.Session.Agent.ToolSet == nil {
		return nil, nil
	}
	id := b.g.toolSetID(c, index)
	if ts, ok := b.g.toolSets[id]; ok {
		return ts, nil
	}
	ts, err := b.g.buildTools(c.Session.Agent.ToolSet, c, id)
	if err != nil {
		return nil, fmt.Errorf("client %q: tool_set: %w", c.Name, err)
	}
	if c.Session.Agent.ToolSet.Scope != spec.ToolScopeSession {
		b.g.toolSets[id] = ts
	}
	return ts, nil
}

// buildTools makes tool set id from its own generator: each tool's size
// first, then, with text, each definition.
func (g *Generator) buildTools(s *spec.ToolSet, c *client, id uint64) (*trace.ToolSet, error) {
	r := rand.New(rand.NewPCG(id, mix(id)))
	ts := &trace.ToolSet{ID: id, Count: s.Count, Choice: s.Choice, Parallel: s.Parallel}
	sizes := make([]int, s.Count)
	for i := range sizes {
		sizes[i] = max(tokens(s.Schema.Sample(r)), spec.MinToolSchema)
		ts.Tokens += sizes[i]
	}
	if g.noText {
		return ts, nil
	}
	ts.Tools = make([]trace.Tool, s.Count)
	for i, n := range sizes {
		t, err := g.tool(r, c, i, n)
		if err != nil {
			return nil, err
		}
		ts.Tools[i] = t
	}
	return ts, nil
}

// toolTries bounds the texts tried for a definition of an exact length.
const toolTries = 8

// tool makes tool i of a set, whose definition's compact JSON is exactly
// n tokens: a name, parameters, and a description cut from a synthetic
// text at the token where the whole definition reaches n tokens (merges
// across the quotes and the escapes of newlines make a description's
// tokens in JSON differ from the text's own).
func (g *Generator) tool(r *rand.Rand, c *client, i, n int) (trace.Tool, error) {
	name := toolVerbs[r.IntN(len(toolVerbs))] + "_" + toolNouns[r.IntN(len(toolNouns))] + "_" + strconv.Itoa(i+1)
	t := openai.Tool{Name: name, Parameters: toolParameters(r, n)}
	var buf []byte
	count := func(desc string) int {
		t.Description = desc
		buf = t.AppendDef(buf[:0])
		return len(g.tok.Encode(string(buf)))
	}
	base := count("")
	if base > n {
		return trace.Tool{}, fmt.Errorf("tool %d: its name and parameters alone take %d tokens, more than its %d; raise schema's min", i+1, base, n)
	}
	for try := range toolTries {
		if base == n {
			break
		}
		text := g.synth.PromptIn(nil, r, c.text.style, c.text.lang, 2*(n-base)<<min(try, 3)+8)
		if desc, ok := cut(g.tok, string(text), n, count); ok {
			t.Description = desc
			return trace.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters}, nil
		}
	}
	if base == n {
		return trace.Tool{Name: t.Name, Parameters: t.Parameters}, nil
	}
	return trace.Tool{}, fmt.Errorf("tool %d: no definition of exactly %d tokens in %d tries (tokenizer %s)", i+1, n, toolTries, g.tok.Name())
}

// cut returns the prefix of text, whole tokens of it, with which count
// gives exactly n, if there is one near where count first reaches n.
func cut(tok content.Tokenizer, text string, n int, count func(string) int) (string, bool) {
	ids := tok.Encode(text)
	prefix := func(k int) string { return tok.Decode(ids[:k]) }
	if count(text) < n {
		return "", false
	}
	// A prefix's tokens in the definition are nearly additive: step by
	// the difference first, and search by halves only if that stalls.
	k := min(n, len(ids))
	for range 4 {
		p := prefix(k)
		c := count(p)
		if c == n && utf8.ValidString(p) {
			return p, true
		}
		k = min(max(k+n-c, 0), len(ids))
	}
	k = sort.Search(len(ids)+1, func(k int) bool { return count(prefix(k)) >= n })
	for d := 0; d <= 8; d++ {
		for _, j := range []int{k - d, k + d} {
			if j < 0 || j > len(ids) {
				continue
			}
			if p := prefix(j); utf8.ValidString(p) && count(p) == n {
				return p, true
			}
		}
	}
	return "", false
}

// toolParameters draws a tool's parameters, a JSON Schema object of up
// to one parameter per 40 tokens of the definition, at most 4.
func toolParameters(r *rand.Rand, n int) json.RawMessage {
	k := min(4, n/40, len(toolParams))
	picked := r.Perm(len(toolParams))[:k]
	b := []byte(`{"type":"object","properties":{`)
	for j, p := range picked {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, `"`+toolParams[p].name+`":{"type":"`+toolParams[p].typ+`"}`...)
	}
	b = append(b, `},"required":[`...)
	if k > 0 {
		b = append(b, `"`+toolParams[picked[0]].name+`"`...)
	}
	return append(b, "]}"...)
}
