package spec

import "testing"

// agentHead is a spec up to an agent session's keys, which a test appends.
const agentHead = `version: 1
requests: 10
clients:
  - name: a
    model: m
    concurrency: 1
    input: 100
    output: 20
    session:
      kind: agent
      steps: 3
      tools: 2
      tool_latency: 1s
      tool_result: 50
`

// TestToolSetDecode checks a tool_set block's values and defaults.
func TestToolSetDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      ToolSet
	}{
		{"defaults", "      tool_set: {count: 8, schema: 200}\n",
			ToolSet{Count: 8, Scope: ToolScopeShared, Choice: ToolChoiceAuto, Parallel: true}},
		{"every key", "      tool_set: {count: 3, schema: 100, scope: session, choice: required, parallel: false}\n",
			ToolSet{Count: 3, Scope: ToolScopeSession, Choice: ToolChoiceRequired}},
	}
	for _, tt := range tests {
		s, err := Parse("t.yaml", []byte(agentHead+tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := s.Clients[0].Session.Agent.ToolSet
		if got == nil || got.Schema == nil {
			t.Fatalf("%s: tool set %+v, want one with a schema", tt.name, got)
		}
		g := *got
		g.Schema = nil
		if g != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, g, tt.want)
		}
	}
	s, err := Parse("t.yaml", []byte(agentHead))
	if err != nil {
		t.Fatal(err)
	}
	if ts := s.Clients[0].Session.Agent.ToolSet; ts != nil {
		t.Errorf("no tool_set decoded to %+v, want nil", ts)
	}
}

// TestToolSetErrors checks that bad tool_set blocks get a message naming
// the key, with near misses suggested.
func TestToolSetErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      want
	}{
		{"near miss key", "      tool_set: {count: 8, schema: 200, scpoe: client}\n",
			want{"15:41: clients[0].session.tool_set.scpoe", `unknown key (did you mean "scope"?)`}},
		{"near miss session key", "      tool_sets: {count: 8, schema: 200}\n",
			want{"15:7: clients[0].session.tool_sets", `did you mean "tool_set"?`}},
		{"missing count", "      tool_set: {schema: 200}\n",
			want{"15:17: clients[0].session.tool_set", "missing key count"}},
		{"scope near miss", "      tool_set: {count: 8, schema: 200, scope: sesion}\n",
			want{"15:48: clients[0].session.tool_set.scope", `did you mean "session"?`}},
		{"choice", "      tool_set: {count: 8, schema: 200, choice: any}\n",
			want{"15:49: clients[0].session.tool_set.choice", "(valid: auto, required, none)"}},
		{"schema too small", "      tool_set: {count: 8, schema: 10}\n",
			want{"15:36: clients[0].session.tool_set.schema", "give it min: 40"}},
		{"too many tools", "      tool_set: {count: 5000, schema: 200}\n",
			want{"15:25: clients[0].session.tool_set.count", "count 5000 is more than 512"}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.name, agentHead+tt.src, tt.want)
	}
}
