package driver

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"surge/client"
	"surge/openai"
	"surge/trace"
)

func ptr[T any](v T) *T { return &v }

// recorder is a Doer that takes MaxTokens ms per request, remembers every
// request with its send and end offsets, and replies "reply-<turn>" where
// the user message is "user-<turn>".
type recorder struct {
	start time.Time
	mu    sync.Mutex
	reqs  map[string]client.Request // by last user message
	sent  map[string]time.Duration
	ended map[string]time.Duration
}

func newRecorder() *recorder {
	return &recorder{start: time.Now(), reqs: map[string]client.Request{}, sent: map[string]time.Duration{}, ended: map[string]time.Duration{}}
}

func (f *recorder) Do(ctx context.Context, req *client.Request) *client.Result {
	sent := time.Now()
	user := strings.TrimPrefix(req.Messages[len(req.Messages)-1].Content, "[salt] ")
	time.Sleep(time.Duration(req.MaxTokens) * time.Millisecond)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs[user], f.sent[user], f.ended[user] = *req, sent.Sub(f.start), time.Since(f.start)
	res := &client.Result{Sent: sent, FirstByte: sent, FirstToken: sent, Last: time.Now(), Status: 200, FinishReason: "stop"}
	if req.KeepText {
		res.Text = "reply-" + user[len(user)-1:]
	}
	return res
}

// dagSession is one session of five turns:
//
//	0 ──(10 ms)──▶ 1 ──(5 ms)──▶ 3
//	 └──(20 ms)──▶ 2 ───────────┘   (3 also after 2)
//	4: no dependencies, due with the session
//
// Turn k takes 10·(k+1) ms and says "user-k".
func dagSession() *trace.Session {
	turn := func(k int) trace.Turn {
		return trace.Turn{InputTokens: 3, MaxTokens: 10 * (k + 1), Prompt: fmt.Sprintf("user-%d", k), Reply: fmt.Sprintf("planned-%d", k)}
	}
	ts := []trace.Turn{turn(0), turn(1), turn(2), turn(3), turn(4)}
	ts[0].System = "sys"
	ts[1].Parent, ts[1].WaitUS = ptr(0), 10_000
	ts[2].After, ts[2].WaitUS = []int{0}, 20_000
	ts[3].Parent, ts[3].After, ts[3].WaitUS = ptr(1), []int{2}, 5_000
	return &trace.Session{Client: "c", Index: 0, AtUS: 7_000, API: "chat", Turns: ts}
}

// TestDAGOrder checks that no turn starts before the turns it depends on
// have finished plus its wait, and that each is sent exactly then: turn 0
// runs 7–17 ms, 1 (+10 ms) 27–47, 2 (+20 ms) 37–67, 3 (after 1 and 2,
// +5 ms) 72–112, and 4, with no dependencies, with turn 0.
func TestDAGOrder(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := dagSession()
		h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "c", Model: "m"}}}
		f := newRecorder()
		_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f}, h, []*trace.Session{s}), nil)
		want := map[int]time.Duration{0: 7, 1: 27, 2: 37, 3: 72, 4: 7}
		for k, ms := range want {
			user := fmt.Sprintf("user-%d", k)
			if got := f.sent[user]; got != ms*time.Millisecond {
				t.Errorf("turn %d sent at %v, want %v", k, got, ms*time.Millisecond)
			}
			for _, d := range s.Turns[k].Deps() {
				if due := f.ended[fmt.Sprintf("user-%d", d)] + s.Turns[k].Wait(); f.sent[user] < due {
					t.Errorf("turn %d sent at %v, before its dependency %d finished plus its wait (%v)", k, f.sent[user], d, due)
				}
			}
		}
		recs := out.byKey()
		if r := recs["c/0/3"]; r.IntendedUS != 72_000 {
			t.Errorf("turn 3 intended at %dus, want 72000: the instant its last dependency finished plus its wait", r.IntendedUS)
		}
		if len(out.recs) != 5 {
			t.Errorf("%d records, want 5", len(out.recs))
		}
	})
}

// TestHistory checks what later turns carry: with pinned history the
// trace's planned replies, so that two runs send identical requests; with
// live history the server's replies. The salt leads the first message of
// each conversation, and only there, in place of its first token (the
// "~" saltCut drops).
func TestHistory(t *testing.T) {
	t.Parallel()
	for _, pinned := range []bool{true, false} {
		t.Run(fmt.Sprintf("pinned=%t", pinned), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				ci := trace.ClientInfo{Name: "c", Model: "m"}
				if pinned {
					ci.History = trace.HistoryPinned
				}
				h := trace.Header{Text: true, Clients: []trace.ClientInfo{ci}}
				runOnce := func() *recorder {
					f := newRecorder()
					s := dagSession()
					s.Turns[0].System, s.Turns[2].Prompt, s.Turns[4].Prompt = "~sys", "~user-2", "~user-4"
					runBubble(t, t.Context(), mustNew(t, Config{Client: f, Salt: "[salt] ", SaltTokens: 1, Cut: saltCut}, h, []*trace.Session{s}), nil)
					return f
				}
				a, b := runOnce(), runOnce()
				reply := "reply-"
				if pinned {
					reply = "planned-"
				}
				want := []openai.Message{
					{Role: "system", Content: "[salt] sys"}, {Role: "user", Content: "user-0"},
					{Role: "assistant", Content: reply + "0"}, {Role: "user", Content: "user-1"},
					{Role: "assistant", Content: reply + "1"}, {Role: "user", Content: "user-3"},
				}
				if got := a.reqs["user-3"].Messages; !reflect.DeepEqual(got, want) {
					t.Errorf("turn 3 sent %v, want %v", got, want)
				}
				if got := a.reqs["user-2"].Messages; !reflect.DeepEqual(got, []openai.Message{{Role: "user", Content: "[salt] user-2"}}) {
					t.Errorf("turn 2, a conversation of its own, sent %v", got)
				}
				if keep := a.reqs["user-1"].KeepText; keep == pinned {
					t.Errorf("KeepText %t on a turn whose reply a later turn carries, with pinned %t", keep, pinned)
				}
				for k := range 5 {
					u := fmt.Sprintf("user-%d", k)
					if !reflect.DeepEqual(a.reqs[u].Messages, b.reqs[u].Messages) {
						t.Errorf("turn %d: two runs sent different messages", k)
					}
				}
			})
		})
	}
}

// TestConversationNeedsChat checks that New refuses a conversation sent
// through the completions API, and pinned history without replies.
func TestConversationNeedsChat(t *testing.T) {
	t.Parallel()
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "c", Model: "m", History: trace.HistoryPinned}}}
	s := dagSession()
	s.Turns[0].Reply = ""
	_, err := New(Config{Client: newRecorder(), API: "completions"}, h, []*trace.Session{s})
	for _, want := range []string{"turn 1 is part of a conversation, which only the chat, responses and messages apis can send", "turn 1: the client's history is pinned but turn 0 has no reply text"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New: %v; want an error containing %q", err, want)
		}
	}
}

// TestReasoningHint checks that a turn's planned reasoning length is sent
// only with Config.ReasoningHint (the built-in engine), and always
// recorded.
func TestReasoningHint(t *testing.T) {
	t.Parallel()
	for _, hint := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			h, ss := openTrace([]int64{0}, []int{1})
			ss[0].Turns[0].ReasoningTokens = 7
			f := &fake{}
			_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f, ReasoningHint: hint}, h, ss), f)
			want := 0
			if hint {
				want = 7
			}
			if got := f.reqs[0].ReasoningTokens; got != want || out.recs[0].ReasoningTokens != 7 {
				t.Errorf("hint %t: sent %d reasoning tokens, recorded %d; want %d sent, 7 recorded", hint, got, out.recs[0].ReasoningTokens, want)
			}
		})
	}
}

// TestAPIRequests checks what each API's requests carry: a conversation
// goes to responses and messages as messages, a completions turn as its
// salted prompt, an embeddings turn as its batch with the first input
// salted.
func TestAPIRequests(t *testing.T) {
	t.Parallel()
	for _, api := range []string{"responses", "messages", "completions", "embeddings", "rerank", "score"} {
		synctest.Test(t, func(t *testing.T) {
			h, ss := openTrace([]int64{0}, []int{1})
			ss[0].API = api
			ss[0].Turns[0].Prompt = "~hello"
			if api == "embeddings" {
				ss[0].Turns[0].Prompt, ss[0].Turns[0].Inputs = "", []string{"~a", "b"}
			}
			if api == "rerank" || api == "score" {
				ss[0].Turns[0].Documents = []string{"~d", "e"}
			}
			f := &fake{}
			count := func(s string) int { return len(s) }
			_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f, Salt: "S ", SaltTokens: 1, Cut: saltCut, Count: count}, h, ss), f)
			if n := out.recs[0].ClientInputTokens; (api == "rerank" || api == "score") && n != 2*len("S hello")+len("~d")+len("e") {
				t.Errorf("%s: client_input_tokens %d, want the query counted once per document", api, n)
			}
			if in := out.recs[0].InputTokens; in != ss[0].Turns[0].InputTokens {
				t.Errorf("%s: recorded input_tokens %d, the trace's %d: the salt takes the place of a token", api, in, ss[0].Turns[0].InputTokens)
			}
			req := f.reqs[0]
			var got string
			switch api {
			case "embeddings":
				got = fmt.Sprint(req.Inputs, req.Prompt == "", len(req.Messages))
			case "completions":
				got = fmt.Sprint(req.Prompt, len(req.Messages))
			case "rerank", "score":
				got = fmt.Sprint(req.Prompt, req.Documents, len(req.Messages), out.recs[0].Documents)
			default:
				got = fmt.Sprint(req.Messages)
			}
			want := map[string]string{"responses": "[{user S hello []  []}]", "messages": "[{user S hello []  []}]", "completions": "S hello0", "embeddings": "[S a b] true 0",
				"rerank": "S hello[~d e] 0 2", "score": "S hello[~d e] 0 2"}[api]
			if req.API != api || got != want {
				t.Errorf("%s: sent %s %s, want %s", api, req.API, got, want)
			}
		})
	}
}

// TestRequestOptions checks that a client's headers, their placeholders
// filled per session, and its extra body with the run's merged over it,
// go with every request; and that an extra body that is no object is
// refused.
func TestRequestOptions(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0, 1}, []int{1, 1})
		h.Clients[0].Headers = map[string]string{"X-Session-Affinity": "{session}", "X-Tenant": "t-{client}"}
		h.Clients[0].ExtraBody = []byte(`{"priority":1,"top_k":5}`)
		f := &fake{}
		runBubble(t, t.Context(), mustNew(t, Config{Client: f, ExtraBody: []byte(`{"top_k":9}`)}, h, ss), f)
		for i, req := range f.reqs {
			want := fmt.Sprintf("o-%d", i)
			if got := req.Header.Get("X-Session-Affinity"); got != want || req.Header.Get("X-Tenant") != "t-o" {
				t.Errorf("request %d: headers %v, want affinity %s and tenant t-o", i, req.Header, want)
			}
			if string(req.Extra) != `{"priority":1,"top_k":9}` {
				t.Errorf("request %d: extra body %s, want the run's top_k over the client's", i, req.Extra)
			}
		}
	})
	h, ss := openTrace([]int64{0}, []int{1})
	h.Clients[0].ExtraBody = []byte(`[1]`)
	if _, err := New(Config{Client: &fake{}, ExtraBody: []byte(`{`)}, h, ss); err == nil || !strings.Contains(err.Error(), "config: extra body") || !strings.Contains(err.Error(), `client "o": extra_body`) {
		t.Errorf("New: %v; want both extra bodies refused", err)
	}
}

// TestTypedOptions checks that a client's typed options in the trace
// header go with every request, and that options out of bounds or of
// unknown members are refused.
func TestTypedOptions(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0, 1}, []int{1, 1})
		h.Clients[0].Options = []byte(`{"n":2,"stop":["x"],"logprobs":true,"top_logprobs":1}`)
		f := &fake{}
		runBubble(t, t.Context(), mustNew(t, Config{Client: f}, h, ss), f)
		for i, req := range f.reqs {
			if o := req.Options; o == nil || o.N != 2 || len(o.Stop) != 1 || !o.Logprobs || o.TopLogprobs != 1 {
				t.Errorf("request %d: options %+v", i, req.Options)
			}
		}
	})
	for _, bad := range []string{`{"n":1000}`, `{"top_logprobs":3}`, `{"m":1}`, `[1]`} {
		h, ss := openTrace([]int64{0}, []int{1})
		h.Clients[0].Options = []byte(bad)
		if _, err := New(Config{Client: &fake{}}, h, ss); err == nil || !strings.Contains(err.Error(), `client "o": options`) {
			t.Errorf("options %s: New: %v; want them refused", bad, err)
		}
	}
}
