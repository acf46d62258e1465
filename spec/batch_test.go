package spec

import (
	"testing"
	"time"
)

func TestBatchErrors(t *testing.T) {
	t.Parallel()
	const c = "  - {name: a, model: m, rate: 1/s, input: 1, output: 1, session: "
	tests := []struct {
		reason string
		src    string
		wants  []want
	}{
		{"a batch session needs its job size", c + "{kind: batch}}\n",
			[]want{{"4:66: clients[0].session", "missing key size (requests per job"}}},
		{"a job holds at least one request", c + "{kind: batch, size: 0}}\n",
			[]want{{"4:86: clients[0].session.size", "size never reaches 1 (fixed(value=0))"}}},
		{"a job is one trace line, so its size is bounded", c + "{kind: batch, size: 200k}}\n",
			[]want{{"4:86: clients[0].session.size", "size is always more than 100000 requests, the largest job"}}},
		{"a size whose tail passes the bound is clamped, not refused", c + "{kind: batch, size: \"pareto(alpha=1.2, xm=100)\"}}\n", nil},
		{"the window is a duration", c + "{kind: batch, size: 10, window: 10}}\n",
			[]want{{"4:98: clients[0].session.window", "a number needs a unit: write 10s"}}},
		{"a deadline of 0 is written by leaving it out", c + "{kind: batch, size: 10, deadline: 0}}\n",
			[]want{{"4:100: clients[0].session.deadline", "deadline must be > 0 (leave it out for none)"}}},
		{"requests released after the deadline cannot meet it", c + "{kind: batch, size: 10, window: 1h, deadline: 30m}}\n",
			[]want{{"4:112: clients[0].session.deadline", "deadline 30m is shorter than the window 1h"}}},
		{"a deadline equal to the window is allowed", c + "{kind: batch, size: 10, window: 30m, deadline: 30m}}\n", nil},
		{"batch keys on a single session say which kind takes them", c + "{deadline: 1h}}\n",
			[]want{{"4:77: clients[0].session.deadline", "deadline is for batch sessions; add kind: batch"}}},
		{"chat keys on a batch session say which kind takes them", c + "{kind: batch, size: 10, turns: 3}}\n",
			[]want{{"4:97: clients[0].session.turns", "turns is for chat sessions; add kind: chat"}}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, head+tt.src, tt.wants...)
	}
}

// TestBatchDecode checks what a batch block decodes to, defaults included.
func TestBatchDecode(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(`version: 1
requests: 10
clients:
  - name: a
    model: m
    rate: 1/m
    input: 20
    output: 100
    session: {kind: batch, size: {dist: uniform, min: 50, max: 150}, window: 2m, deadline: 1h}
  - {name: b, model: m, concurrency: 2, input: 1, output: 1, session: {kind: batch, size: 7}}
`))
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Clients[0].Session, s.Clients[1].Session
	if a.Kind != KindBatch || a.Batch == nil || a.RAG != nil {
		t.Fatalf("session %+v, want kind batch with its block", a)
	}
	tests := []struct {
		reason    string
		got, want any
	}{
		{"size uniform on 50..150 averages 100", a.Batch.Size.Mean(), 100.0},
		{"window", a.Batch.Window, 2 * time.Minute},
		{"deadline", a.Batch.Deadline, time.Hour},
		{"a fixed size", b.Batch.Size.Mean(), 7.0},
		{"the window defaults to 0: all at once", b.Batch.Window, time.Duration(0)},
		{"the deadline defaults to 0: none", b.Batch.Deadline, time.Duration(0)},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.reason, tt.got, tt.want)
		}
	}
}
