package driver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/client"
	"surge/trace"
)

// toolLoopSession is a session of two turns with a tool set: the second
// continues the first, whose reply calls a tool, and carries its result.
func toolLoopSession(api string) *trace.Session {
	return &trace.Session{Client: "o", API: api, Tools: testToolSet(), Turns: []trace.Turn{
		{InputTokens: 1, OutputTokens: 7, MaxTokens: 7, Prompt: "hello"},
		{Parent: &[]int{0}[0], ToolCalls: 1, InputTokens: 12, OutputTokens: 7, MaxTokens: 7, Prompt: "it is sunny"},
	}}
}

// TestToolLoopBodies runs a tool-calling turn and its successor against
// a server answering the first with each API's captured tool call, and
// asserts the exact body of the second: the conversation with the
// reply's calls, the server's ids, and a result for each.
func TestToolLoopBodies(t *testing.T) {
	t.Parallel()
	const tools = `"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}}],"tool_choice":"required","parallel_tool_calls":true}`
	tests := []struct {
		api, first, second string
		want               string
	}{
		{"chat", "vllm_tools.sse", "vllm_chat.sse",
			`{"model":"m","messages":[{"role":"user","content":"hello"},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"chatcmpl-tool-5e2a","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Paris\"}"}}]},` +
				`{"role":"tool","tool_call_id":"chatcmpl-tool-5e2a","content":"it is sunny"}],` +
				`"max_tokens":7,"stream":true,"stream_options":{"include_usage":true},` + tools},
		{"chat", "llmd_tools.sse", "vllm_chat.sse",
			`{"model":"m","messages":[{"role":"user","content":"hello"},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"chatcmpl-tool-9782490790","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Boston\"}"}}]},` +
				`{"role":"tool","tool_call_id":"chatcmpl-tool-9782490790","content":"it is sunny"}],` +
				`"max_tokens":7,"stream":true,"stream_options":{"include_usage":true},` + tools},
		{"responses", "openai_responses_tools.sse", "openai_responses.sse",
			`{"model":"m","input":[{"role":"user","content":"hello"},` +
				`{"type":"function_call","call_id":"call_12345xyz","name":"get_weather","arguments":"{\"location\":\"Paris, France\"}"},` +
				`{"type":"function_call_output","call_id":"call_12345xyz","output":"it is sunny"}],` +
				`"max_output_tokens":7,"stream":true,"store":false,"tools":[{"type":"function","name":"f","description":"d","parameters":{"type":"object"}}],"tool_choice":"required","parallel_tool_calls":true}`},
		{"messages", "anthropic_thinking_tools.sse", "anthropic_messages.sse",
			`{"model":"m","messages":[{"role":"user","content":"hello"},` +
				`{"role":"assistant","content":[{"type":"text","text":"Let me check."},{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{"location": "San Francisco, CA"}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","content":"it is sunny"}]}],` +
				`"max_tokens":7,"stream":true,"tools":[{"name":"f","description":"d","input_schema":{"type":"object"}}],"tool_choice":{"type":"any"}}`},
	}
	for _, tt := range tests {
		bodies := captureRun(t, toolLoopSession(tt.api), tt.first, tt.second)
		if len(bodies) != 2 {
			t.Fatalf("%s: %d requests, want 2", tt.first, len(bodies))
		}
		if bodies[1] != tt.want {
			t.Errorf("%s then %s: second body\n got %s\nwant %s", tt.first, tt.second, bodies[1], tt.want)
		}
	}
}

// captureRun runs session s with a real client against a server that
// answers its requests with the test streams replies, in turn, and
// returns the bodies it got.
func captureRun(t *testing.T, s *trace.Session, replies ...string) []string {
	t.Helper()
	return captureRunHeader(t, trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "o", Model: "m"}}}, s, replies...)
}

// captureRunHeader is captureRun of a trace with header h.
func captureRunHeader(t *testing.T, h trace.Header, s *trace.Session, replies ...string) []string {
	t.Helper()
	bodies, _ := captureRecords(t, h, s, Config{Stream: true}, readStreams(t, replies...))
	return bodies
}

// readStreams reads test streams of openai's test data.
func readStreams(t *testing.T, names ...string) [][]byte {
	t.Helper()
	streams := make([][]byte, len(names))
	for i, name := range names {
		b, err := os.ReadFile(filepath.Join("..", "openai", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		streams[i] = b
	}
	return streams
}

// captureRecords runs s under cfg with a real client against a server
// answering with streams in turn, and returns the bodies it got and the
// records.
func captureRecords(t *testing.T, h trace.Header, s *trace.Session, cfg Config, streams [][]byte) ([]string, []trace.Record) {
	t.Helper()
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		n := len(bodies)
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(streams[min(n, len(streams)-1)])
	}))
	t.Cleanup(srv.Close)
	cl, err := client.New(client.Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	cfg.Client = cl
	d := mustNew(t, cfg, h, []*trace.Session{s})
	out := &sink{}
	if _, err := d.Run(context.Background(), time.Now(), out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.recs {
		if !r.OK() {
			t.Errorf("turn %d: %s %s", r.Turn, r.ErrorClass, strings.TrimSpace(r.Error))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return bodies, out.recs
}

// TestToolLoopCount checks that surge's prompt count of a turn sending
// tool calls back counts their arguments beside every message's content.
func TestToolLoopCount(t *testing.T) {
	t.Parallel()
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "o", Model: "m"}}}
	words := func(s string) int { return len(strings.Fields(s)) }
	_, recs := captureRecords(t, h, toolLoopSession("chat"), Config{Stream: true, Count: words}, readStreams(t, "vllm_tools.sse", "vllm_chat.sse"))
	// "hello", {"city": "Paris"} (two words) and "it is sunny".
	for _, r := range recs {
		if want := map[int]int{0: 1, 1: 1 + 2 + 3}[r.Turn]; r.ClientInputTokens != want {
			t.Errorf("turn %d: client_input_tokens %d, want %d", r.Turn, r.ClientInputTokens, want)
		}
	}
}

// TestToolLoopPinned checks that under pinned history a planned reply
// whose successor carries two tool results is sent as two tool calls,
// fixed by the trace alone: ids from the tool set, session and turn, names
// from the set, the planned reply as their arguments, whatever the server
// answered; and that the results split the successor's prompt.
func TestToolLoopPinned(t *testing.T) {
	t.Parallel()
	s := toolLoopSession("chat")
	s.Turns[0].Reply = "read the file and the log"
	s.Turns[1].ToolCalls = 2
	s.Tools.Tools = append(s.Tools.Tools, trace.Tool{Name: "g", Parameters: []byte(`{}`)})
	s.Tools.Count = 2
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "o", Model: "m", History: trace.HistoryPinned}}}
	want := `{"model":"m","messages":[{"role":"user","content":"hello"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_ID0","type":"function","function":{"name":"N0","arguments":"{\"input\":\"read the file\"}"}},` +
		`{"id":"call_ID1","type":"function","function":{"name":"N1","arguments":"{\"input\":\" and the log\"}"}}]},` +
		`{"role":"tool","tool_call_id":"call_ID0","content":"it is"},{"role":"tool","tool_call_id":"call_ID1","content":" sunny"}],` +
		`"max_tokens":7,"stream":true,"stream_options":{"include_usage":true},"tools":[`
	want = strings.NewReplacer("ID0", "d8b946a1f910d155", "ID1", "d8b945a1f910cfa2", "N0", "g", "N1", "f").Replace(want)
	for _, first := range []string{"vllm_tools.sse", "vllm_chat.sse"} {
		bodies := captureRunHeader(t, h, s, first, "vllm_chat.sse")
		if len(bodies) != 2 || !strings.HasPrefix(bodies[1], want) {
			t.Errorf("after %s: second body\n got %s\nwant %s…", first, bodies[len(bodies)-1], want)
		}
	}
}
