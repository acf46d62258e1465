package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/client"
	"surge/trace"
)

// faultServer streams 30 tokens 20 ms apart to a valid request and
// refuses the rest as vLLM does; it keeps what each request asked for.
type faultServer struct {
	mu   sync.Mutex
	seen map[string]map[string]any // by the last message's first word: the request
	bad  int                       // bodies that were not JSON
}

func (s *faultServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req map[string]any
	if json.Unmarshal(b, &req) != nil {
		s.mu.Lock()
		s.bad++
		s.mu.Unlock()
		http.Error(w, `{"error":{"message":"malformed JSON"}}`, http.StatusBadRequest)
		return
	}
	msgs := req["messages"].([]any)
	text := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	key := strings.Fields(text + " (empty)")[0]
	s.mu.Lock()
	s.seen[key] = req
	s.mu.Unlock()
	switch {
	case text == "" || len(text) > 1000:
		http.Error(w, `{"error":{"message":"bad prompt"}}`, http.StatusBadRequest)
		return
	case req["model"] != "m":
		http.Error(w, `{"error":{"message":"no such model"}}`, http.StatusNotFound)
		return
	case req["max_tokens"] != nil && req["max_tokens"].(float64) < 0:
		http.Error(w, `{"error":{"message":"max_tokens must be at least 1"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	f := w.(http.Flusher)
	for i := range 30 {
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t%d \"}}]}\n\n", i)
		f.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
	fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
}

// TestInjectFaults sends a trace whose requests carry each kind of fault,
// and a storm, through the real client: each reaches the server as its
// fault says, and each record carries its fault and the class the server
// or the client gave it.
func TestInjectFaults(t *testing.T) {
	t.Parallel()
	srv := &faultServer{seen: map[string]map[string]any{}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	cl, err := client.New(client.Config{BaseURL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	faults := []*trace.Fault{
		nil,
		{Kind: trace.FaultEmptyPrompt},
		{Kind: trace.FaultOverContext, Tokens: 5000},
		{Kind: trace.FaultMalformedJSON},
		{Kind: trace.FaultInvalidParams, Param: "model"},
		{Kind: trace.FaultInvalidParams, Param: "max_tokens"},
		{Kind: trace.FaultChurn},
		{Kind: trace.FaultCancel, Tokens: 5},
		{Kind: trace.FaultCancel, AfterUS: 100_000},
		{Kind: trace.FaultStall, StallUS: 200_000},
	}
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "c", Model: "m"}, {Name: "s", Model: "m"}}}
	var ss []*trace.Session
	for i, f := range faults {
		ss = append(ss, &trace.Session{Client: "c", Index: i, API: "chat",
			Turns: []trace.Turn{{InputTokens: 2, OutputTokens: 30, MaxTokens: 30, Prompt: fmt.Sprintf("p%d hello", i), Fault: f}}})
	}
	// Client s has four healthy requests in flight at 300 ms, when a
	// storm cancels half of them.
	h.FaultWindows = []trace.FaultWindow{{Kind: trace.FaultStorm, Client: "s", AtUS: 300_000, Fraction: 0.5}}
	for i := range 4 {
		ss = append(ss, &trace.Session{Client: "s", Index: 10 + i, API: "chat",
			Turns: []trace.Turn{{InputTokens: 2, OutputTokens: 30, MaxTokens: 30, Prompt: fmt.Sprintf("s%d hello", i)}}})
	}
	d := mustNew(t, Config{Client: cl, Stream: true}, h, ss)
	out := &sink{}
	if _, err := d.Run(context.Background(), time.Now(), out); err != nil {
		t.Fatal(err)
	}
	got := map[int]trace.Record{}
	for _, r := range out.recs {
		got[r.Session] = r
	}
	want := []struct {
		fault, class string
		status       int
	}{
		{"", "", 200},
		{trace.FaultEmptyPrompt, trace.ErrHTTP, 400},
		{trace.FaultOverContext, trace.ErrHTTP, 400},
		{trace.FaultMalformedJSON, trace.ErrHTTP, 400},
		{trace.FaultInvalidParams, trace.ErrHTTP, 404},
		{trace.FaultInvalidParams, trace.ErrHTTP, 400},
		{trace.FaultChurn, "", 200},
		{trace.FaultCancel, trace.ErrCancelled, 200},
		{trace.FaultCancel, trace.ErrCancelled, 200},
		{trace.FaultStall, "", 200},
	}
	for i, w := range want {
		r := got[i]
		if r.Fault != w.fault || r.ErrorClass != w.class || r.Status != w.status {
			t.Errorf("session %d: fault %q, class %q, status %d; want %q, %q, %d (%s)", i, r.Fault, r.ErrorClass, r.Status, w.fault, w.class, w.status, r.Error)
		}
	}
	if r := got[7]; r.Chunks != 5 {
		t.Errorf("cancel after 5 tokens: %d chunks", r.Chunks)
	}
	if r := got[8]; r.Chunks == 0 || r.Chunks >= 30 {
		t.Errorf("cancel after 100 ms: %d chunks, want some but not all", r.Chunks)
	}
	stormed := 0
	for i := range 4 {
		r := got[10+i]
		switch r.Fault {
		case trace.FaultStorm:
			stormed++
			if r.ErrorClass != trace.ErrCancelled || r.Chunks == 0 {
				t.Errorf("stormed session %d: class %q, %d chunks; want cancelled with its partial tokens", 10+i, r.ErrorClass, r.Chunks)
			}
		case "":
			if !r.OK() {
				t.Errorf("session %d outside the storm failed: %s", 10+i, r.Error)
			}
		}
	}
	if stormed != 2 {
		t.Errorf("the storm cancelled %d of 4 requests in flight, want 2", stormed)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.bad != 1 {
		t.Errorf("%d malformed bodies reached the server, want 1", srv.bad)
	}
	if m := srv.seen["lorem"]; m == nil {
		t.Error("the over-context prompt did not reach the server")
	}
}
