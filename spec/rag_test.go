package spec

import (
	"math"
	"testing"
)

func TestRAGErrors(t *testing.T) {
	t.Parallel()
	const c = "  - {name: a, model: m, rate: 1/s, input: 1, output: 1, session: "
	tests := []struct {
		reason string
		src    string
		wants  []want
	}{
		{"a rag session needs its pool, its chunk count and its chunk length", c + "{kind: rag}}\n", []want{
			{"4:66: clients[0].session", "missing key documents (the size of the document pool"},
			{"4:66: clients[0].session", "missing key chunks (documents retrieved per request"},
			{"4:66: clients[0].session", "missing key chunk (the length of each document in tokens"},
		}},
		{"the smallest pool is one document", c + "{kind: rag, documents: 0, chunks: 1, chunk: 10}}\n",
			[]want{{"4:89: clients[0].session.documents", "documents must be from 1 to 1000000, got 0"}}},
		{"the popularity table bounds the pool", c + "{kind: rag, documents: 2M, chunks: 1, chunk: 10}}\n",
			[]want{{"4:89: clients[0].session.documents", "documents must be from 1 to 1000000, got 2000000"}}},
		{"popularity is a non-negative exponent", c + "{kind: rag, documents: 10, zipf: -1, chunks: 1, chunk: 10}}\n",
			[]want{{"4:99: clients[0].session.zipf", "zipf must be ≥ 0 (0 draws uniformly), got -1"}}},
		{"retrieving more distinct documents than the pool holds is impossible", c + "{kind: rag, documents: 3, chunks: 5, chunk: 10}}\n",
			[]want{{"4:100: clients[0].session.chunks", "chunks is always more than the 3 documents (fixed(value=5))"}}},
		{"a request retrieves at least one document", c + "{kind: rag, documents: 3, chunks: 0, chunk: 10}}\n",
			[]want{{"4:100: clients[0].session.chunks", "chunks never reaches 1 (fixed(value=0))"}}},
		{"a chunk count that only sometimes passes the pool is clamped, not refused", c + "{kind: rag, documents: 5, chunks: {dist: uniform, min: 2, max: 10}, chunk: 10}}\n", nil},
		{"chunk is a token length", c + "{kind: rag, documents: 3, chunks: 1, chunk: 0}}\n",
			[]want{{"4:110: clients[0].session.chunk", "chunk never reaches 1 token"}}},
		{"a typo in a rag key gets a hint", c + "{kind: rag, documnets: 3, chunks: 1, chunk: 10}}\n",
			[]want{
				{"4:66: clients[0].session", "missing key documents"},
				{"4:78: clients[0].session.documnets", `unknown key (did you mean "documents"?)`},
			}},
		{"rag keys on a chat session say which kind takes them", c + "{kind: chat, turns: 2, documents: 5}}\n",
			[]want{{"4:100: clients[0].session.documents", "documents is for rag sessions; add kind: rag"}}},
		{"batch keys on a rag session say which kind takes them", c + "{kind: rag, documents: 3, chunks: 1, chunk: 10, window: 1s}}\n",
			[]want{{"4:122: clients[0].session.window", "window is for batch sessions; add kind: batch"}}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, head+tt.src, tt.wants...)
	}
}

// TestRAGDecode checks what a rag block decodes to: the pool, the
// popularity table built from it, and the canonical form's defaults.
func TestRAGDecode(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(head+`  - name: a
    model: m
    rate: 1/s
    input: 20
    output: 100
    session:
      kind: rag
      documents: 1k
      zipf: 1.1
      chunks: {dist: uniform, min: 2, max: 6}
      chunk: 500
  - {name: b, model: m, rate: 1/s, input: 1, output: 1, session: {kind: rag, documents: 4, chunks: 2, chunk: 8}}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Clients[0].Session.RAG
	if s.Clients[0].Session.Kind != KindRAG || r == nil || s.Clients[0].Session.Batch != nil {
		t.Fatalf("session %+v, want kind rag with its block", s.Clients[0].Session)
	}
	// zipf(s, n) has mean Σ i·i^-s / Σ i^-s.
	var num, den float64
	for i := 1; i <= 1000; i++ {
		num += math.Pow(float64(i), -0.1)
		den += math.Pow(float64(i), -1.1)
	}
	tests := []struct {
		reason    string
		got, want float64
	}{
		{"documents 1k is a pool of 1000", float64(r.Documents), 1000},
		{"the exponent is kept", r.Zipf, 1.1},
		{"chunks uniform on 2..6 average 4", r.Chunks.Mean(), 4},
		{"a fixed chunk length", r.Chunk.Mean(), 500},
		{"popularity is zipf(1.1) over 1000 documents", r.Popularity.Mean(), num / den},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-9*math.Abs(tt.want) {
			t.Errorf("%s: got %g, want %g", tt.reason, tt.got, tt.want)
		}
	}
	if u := s.Clients[1].Session.RAG; u.Zipf != 0 || u.Popularity != nil {
		t.Errorf("without zipf: zipf %g, popularity %v; want 0 and none (uniform)", u.Zipf, u.Popularity)
	}
}
