package workload

import (
	"fmt"
	"testing"

	"surge/openai"
)

// toolsSpec is two agent clients whose tool sets have the given scope,
// with the given prompt style.
func toolsSpec(scope, style string) string {
	agent := func(name string) string {
		return fmt.Sprintf(`  - name: %s
    model: m
    concurrency: 2
    input: 100
    output: 20
    prompt: %s
    session:
      kind: agent
      steps: 2
      tools: 1
      tool_latency: 1s
      tool_result: 30
      tool_set: {count: 5, schema: {dist: uniform, min: 40, max: 600}, scope: %s, choice: required, parallel: false}
`, name, style, scope)
	}
	return "version: 1\nseed: 4\nrequests: 8\nclients:\n" + agent("a") + agent("b")
}

// TestToolDefinitionsExact checks that every definition's compact JSON is
// exactly its planned length for the workload's tokenizer, in every
// prompt style, and that the set's tokens are their sum.
func TestToolDefinitionsExact(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	for _, style := range []string{"mixed", "question", "instruction", "summarize", "code"} {
		_, ss := generate(t, parse(t, toolsSpec("session", style)), Options{})
		for _, s := range ss {
			ts := s.Tools
			if ts == nil || len(ts.Tools) != 5 || ts.Choice != "required" || ts.Parallel {
				t.Fatalf("%s: session %s/%d tools %+v", style, s.Client, s.Index, ts)
			}
			sum := 0
			for _, d := range ts.Tools {
				def := openai.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
				sum += len(tok.Encode(string(def.AppendDef(nil))))
			}
			if sum != ts.Tokens {
				t.Errorf("%s: session %s/%d: definitions take %d tokens, the set says %d", style, s.Client, s.Index, sum, ts.Tokens)
			}
		}
	}
}

// TestToolSetScopes checks who shares a tool set: every session of the
// workload, of a client, or none; and that a trace without text plans the
// same sets.
func TestToolSetScopes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scope string
		want  int // distinct sets among 8 sessions of 2 clients
	}{{"shared", 1}, {"client", 2}, {"session", 8}}
	for _, tt := range tests {
		_, ss := generate(t, parse(t, toolsSpec(tt.scope, "mixed")), Options{})
		_, bare := generate(t, parse(t, toolsSpec(tt.scope, "mixed")), Options{NoText: true})
		ids := map[uint64]string{}
		for i, s := range ss {
			if s.Tools == nil {
				t.Fatalf("%s: session %d has no tools", tt.scope, i)
			}
			if s.Tools.ID >= 1<<53 {
				t.Errorf("%s: tool set id %d is not exact as a JSON number (≥ 2^53)", tt.scope, s.Tools.ID)
			}
			if prev, ok := ids[s.Tools.ID]; ok && prev != s.Tools.Tools[0].Description {
				t.Errorf("%s: two sets with id %d differ", tt.scope, s.Tools.ID)
			}
			ids[s.Tools.ID] = s.Tools.Tools[0].Description
			if b := bare[i].Tools; b == nil || b.ID != s.Tools.ID || b.Tokens != s.Tools.Tokens || b.Tools != nil {
				t.Errorf("%s: session %d without text has tools %+v, want id %d, %d tokens, no text", tt.scope, i, b, s.Tools.ID, s.Tools.Tokens)
			}
		}
		if len(ids) != tt.want {
			t.Errorf("%s: %d distinct tool sets, want %d", tt.scope, len(ids), tt.want)
		}
	}
}

// BenchmarkToolSet times building one set of 12 tools of about 250
// tokens each.
func BenchmarkToolSet(b *testing.B) {
	_, _ = o200k(b)
	s := parse(b, toolsSpec("session", "mixed"))
	for b.Loop() {
		generate(b, s, Options{})
	}
}
