package openai

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// decodeCalls reads every event of a test stream, or a whole body, with
// DecodeCalls and returns the calls collected.
func decodeCalls(t *testing.T, name string) []Call {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	api := fileAPI(name)
	var calls Calls
	calls.Reset()
	var answer, reasoning []byte
	decode := func(data []byte) {
		in, a, r, err := DecodeCalls(api, data, answer, reasoning, &calls)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want, _ := DecodeAPI(api, data); in != want {
			t.Errorf("%s: DecodeCalls info %+v, DecodeAPI %+v", name, in, want)
		}
		answer, reasoning = a, r
	}
	if !strings.HasSuffix(name, ".sse") {
		decode(b)
		return calls.List()
	}
	var p Parser
	p.Feed(b)
	for ev, ok := p.Next(); ok; ev, ok = p.Next() {
		if !ev.Done() {
			decode(ev.Data)
		}
	}
	return calls.List()
}

// TestDecodeCalls checks the calls collected from each API's captured
// streams and whole bodies: the server's ids, names and whole arguments.
func TestDecodeCalls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want []Call
	}{
		{"vllm_tools.sse", []Call{{"chatcmpl-tool-5e2a", "get_weather", `{"city": "Paris"}`}}},
		{"llmd_tools.sse", []Call{{"chatcmpl-tool-9782490790", "get_weather", `{"city":"Boston"}`}}},
		{"openai_responses_tools.sse", []Call{{"call_12345xyz", "get_weather", `{"location":"Paris, France"}`}}},
		{"anthropic_thinking_tools.sse", []Call{{"toolu_01T1x1fJ34qAmk2tNTrN7Up6", "get_weather", `{"location": "San Francisco, CA"}`}}},
		{"vllm_chat.sse", nil},
		{"vllm_chat.json", nil},
	}
	for _, tt := range tests {
		if got := decodeCalls(t, tt.file); !slices.Equal(got, tt.want) {
			t.Errorf("%s: calls %+v, want %+v", tt.file, got, tt.want)
		}
	}
}

// TestDecodeCallsWhole checks the calls of whole bodies of each API,
// two calls each, and that a chat choice other than 0 adds none.
func TestDecodeCallsWhole(t *testing.T) {
	t.Parallel()
	two := []Call{{"a1", "f", `{"x":1}`}, {"b2", "g", `{}`}}
	tests := []struct {
		api, body string
		want      []Call
	}{
		{APIChat, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
			`{"id":"a1","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},` +
			`{"type":"function","function":{"arguments":"{}","name":"g"},"id":"b2"}]},"finish_reason":"tool_calls"}]}`, two},
		{APIChat, `{"choices":[{"index":1,"message":{"tool_calls":[{"id":"z","function":{"name":"f","arguments":"{}"}}]}}]}`, nil},
		{APIResponses, `{"status":"completed","output":[{"type":"message","role":"assistant","content":[]},` +
			`{"type":"function_call","call_id":"a1","name":"f","arguments":"{\"x\":1}"},` +
			`{"type":"function_call","arguments":"{}","name":"g","call_id":"b2","id":"fc_9"}]}`, two},
		{APIMessages, `{"type":"message","content":[{"type":"text","text":"ok"},` +
			`{"type":"tool_use","id":"a1","name":"f","input":{"x":1}},{"type":"tool_use","input":{},"name":"g","id":"b2"}],"stop_reason":"tool_use"}`, two},
	}
	for _, tt := range tests {
		var calls Calls
		if _, _, _, err := DecodeCalls(tt.api, []byte(tt.body), nil, nil, &calls); err != nil {
			t.Fatalf("%s: %v", tt.api, err)
		}
		if got := calls.List(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: calls %+v, want %+v", tt.api, got, tt.want)
		}
	}
}

// TestCallsBounded checks that a reply of more calls or longer arguments
// than the bounds keeps only what fits, and says so.
func TestCallsBounded(t *testing.T) {
	t.Parallel()
	var calls Calls
	entry := `{"index":%d,"id":"c","function":{"name":"f","arguments":"` + strings.Repeat("x", 9000) + `"}}`
	var b strings.Builder
	b.WriteString(`{"choices":[{"index":0,"delta":{"tool_calls":[`)
	for i := range MaxCalls + 10 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strings.Replace(entry, "%d", strconv.Itoa(i), 1))
	}
	b.WriteString(`]}}]}`)
	if _, _, _, err := DecodeCalls(APIChat, []byte(b.String()), nil, nil, &calls); err != nil {
		t.Fatal(err)
	}
	got := calls.List()
	n := 0
	for _, c := range got {
		n += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	if len(got) != MaxCalls || n > MaxCallBytes || !calls.Cut {
		t.Errorf("%d calls of %d bytes, cut %t; want %d of at most %d, cut", len(got), n, calls.Cut, MaxCalls, MaxCallBytes)
	}
	calls.Reset()
	if calls.Len() != 0 || calls.Cut || calls.List() != nil {
		t.Errorf("after Reset: %d calls, cut %t", calls.Len(), calls.Cut)
	}
}

// TestToolHistoryShapes asserts the exact messages of a conversation
// whose assistant turn called two tools, in each API's shape.
func TestToolHistoryShapes(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Role: "system", Content: "S"},
		{Role: "user", Content: "U"},
		{Role: "assistant", Calls: []Call{{"c1", "f", `{"x":"a\"b"}`}, {"c2", "g", "not json"}}},
		{Role: RoleTool, CallID: "c1", Content: "R1"},
		{Role: RoleTool, CallID: "c2", Content: "R2"},
		{Role: "assistant", Content: "T", Calls: []Call{{"c3", "f", `{}`}}},
		{Role: RoleTool, CallID: "c3", Content: "R3"},
	}
	chat := (&Request{Messages: msgs}).AppendJSON(nil)
	want := `{"messages":[{"role":"system","content":"S"},{"role":"user","content":"U"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"x\":\"a\\\"b\"}"}},{"id":"c2","type":"function","function":{"name":"g","arguments":"not json"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"R1"},{"role":"tool","tool_call_id":"c2","content":"R2"},` +
		`{"role":"assistant","content":"T","tool_calls":[{"id":"c3","type":"function","function":{"name":"f","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c3","content":"R3"}]}`
	if string(chat) != want {
		t.Errorf("chat:\n got %s\nwant %s", chat, want)
	}
	resp := (&ResponsesRequest{Input: msgs}).AppendJSON(nil)
	want = `{"input":[{"role":"system","content":"S"},{"role":"user","content":"U"},` +
		`{"type":"function_call","call_id":"c1","name":"f","arguments":"{\"x\":\"a\\\"b\"}"},{"type":"function_call","call_id":"c2","name":"g","arguments":"not json"},` +
		`{"type":"function_call_output","call_id":"c1","output":"R1"},{"type":"function_call_output","call_id":"c2","output":"R2"},` +
		`{"role":"assistant","content":"T"},{"type":"function_call","call_id":"c3","name":"f","arguments":"{}"},` +
		`{"type":"function_call_output","call_id":"c3","output":"R3"}]}`
	if string(resp) != want {
		t.Errorf("responses:\n got %s\nwant %s", resp, want)
	}
	m := (&MessagesRequest{Messages: msgs[1:], MaxTokens: 1}).AppendJSON(nil)
	want = `{"messages":[{"role":"user","content":"U"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"f","input":{"x":"a\"b"}},{"type":"tool_use","id":"c2","name":"g","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"R1"},{"type":"tool_result","tool_use_id":"c2","content":"R2"}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"T"},{"type":"tool_use","id":"c3","name":"f","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c3","content":"R3"}]}],"max_tokens":1}`
	if string(m) != want {
		t.Errorf("messages:\n got %s\nwant %s", m, want)
	}
}
