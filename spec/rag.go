package spec

import (
	"bytes"
	"fmt"
	"strconv"

	"surge/dist"
)

// MaxDocuments is the largest document pool a rag session may draw from:
// the popularity table takes 8 bytes a document.
const MaxDocuments = 1_000_000

// RAG is the shape of retrieval-augmented requests (session kind rag):
// each session is one request whose prompt is Chunks documents retrieved
// from a pool shared by all of the client's sessions, then the question.
// The client's input is the question's length and its output the answer's.
//
// The retrieved documents are distinct, drawn one after another by
// popularity among those not drawn yet, and placed most popular first, so
// requests retrieving the same most popular documents share a prompt
// prefix as long as those documents.
type RAG struct {
	Documents int // documents in the pool, 1 to MaxDocuments
	// Zipf is the popularity exponent: document i (from 1) is drawn with
	// probability ∝ 1/i^Zipf among those not drawn yet; 0 draws uniformly.
	Zipf float64
	// Chunks is the number of documents retrieved per request, rounded
	// and kept within [1, Documents].
	Chunks dist.Dist
	// Chunk is the length in tokens of each document, sampled once per
	// document.
	Chunk dist.Dist
	// Popularity is the distribution of a drawn document's rank on
	// 1..Documents, zipf(s=Zipf, n=Documents), or nil when Zipf is 0
	// (uniform). Parse builds it from Documents and Zipf, so that every
	// compilation of the spec shares one table.
	Popularity dist.Dist
}

// ragKeys are the session keys of kind rag.
var ragKeys = []string{"documents", "zipf", "chunks", "chunk"}

// rag reads the rag keys of a session block.
func (d *decoder) rag(o *object) *RAG {
	r := &RAG{}
	if n, path, ok := d.require(o, "documents", "the size of the document pool, like documents: 1000"); ok {
		if v, ok := d.count(n, path); ok && d.check(o, "documents", v < 1 || v > MaxDocuments,
			"documents must be from 1 to %d, got %d", MaxDocuments, v) {
			r.Documents = v
		}
	}
	if field(o, "zipf", d.number, &r.Zipf) {
		d.check(o, "zipf", r.Zipf < 0, "zipf must be ≥ 0 (0 draws uniformly), got %g", r.Zipf)
	}
	r.Chunks = d.counts(o, "chunks", "documents retrieved per request, like chunks: 4",
		r.Documents, fmt.Sprintf("the %d documents", r.Documents))
	r.Chunk = d.lengths(o, "chunk", "the length of each document in tokens, like chunk: 500")
	if r.Zipf > 0 && r.Documents > 1 {
		r.Popularity = d.build(&object{node: o.node}, o.path, "zipf", dist.Params{"s": r.Zipf, "n": float64(r.Documents)})
	}
	return r
}

// writeRAG renders the session block of a rag client.
func writeRAG(b *bytes.Buffer, s Session) {
	r := s.RAG
	fmt.Fprintf(b, "    session:\n      kind: rag\n      documents: %d\n      zipf: %s\n      chunks: %s\n      chunk: %s\n      history: %s\n",
		r.Documents, num(r.Zipf), strconv.Quote(r.Chunks.String()), strconv.Quote(r.Chunk.String()), s.History)
}
