package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Corpus pieces are runs of whole words cut at word boundaries: at the end
// of a sentence once a piece has minPieceBytes, and anywhere once it has
// maxPieceBytes, so that a piece is roughly a sentence of 10–40 tokens.
const (
	minPieceBytes = 40
	maxPieceBytes = 200
)

// corpusTables are the pieces of a corpus Synth.
type corpusTables struct {
	first, end uint32     // corpus pieces are ids [first, end), in corpus order
	starts     countTable // pieces that begin a sentence, start form
	fill       countTable // every corpus piece and the fillers, body form
}

// corpusDocs returns the documents of a corpus: the "text" fields of JSON
// Lines (recognised by a first non-blank line beginning with '{'), or the
// whole text. Documents are trimmed and empty ones dropped.
func corpusDocs(b []byte) ([]string, error) {
	if !utf8.Valid(b) {
		return nil, errors.New("reading corpus: not valid UTF-8")
	}
	trimmed := bytes.TrimLeftFunc(b, unicode.IsSpace)
	if len(trimmed) == 0 {
		return nil, errors.New("reading corpus: no text")
	}
	if trimmed[0] != '{' {
		return []string{strings.TrimSpace(string(b))}, nil
	}
	var docs []string
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec struct {
			Text *string `json:"text"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("reading corpus line %d as JSON: %w", i+1, err)
		}
		if rec.Text == nil {
			return nil, fmt.Errorf("reading corpus line %d: no string field \"text\"", i+1)
		}
		if d := strings.TrimSpace(*rec.Text); d != "" {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		return nil, errors.New("reading corpus: no text in any line")
	}
	return docs, nil
}

// addCorpus stores the documents as consecutive pieces, each document
// starting a new piece, and notes which pieces begin a sentence.
func (b *builder) addCorpus(docs []string) {
	b.corpusFirst = uint32(len(b.p.pieces))
	for _, d := range docs {
		body := " " + d
		first := true
		for len(body) > 0 {
			k := pieceLen(body)
			id := b.corpusPiece(body[:k])
			if first || sentenceStart(b.p.text, b.p.pieces[id]) {
				b.corpusStarts = append(b.corpusStarts, id)
			}
			first = false
			body = body[k:]
		}
	}
	b.corpusEnd = uint32(len(b.p.pieces))
}

// corpusPiece stores one corpus piece; unlike sentence it never merges
// repeats, since corpus order matters.
func (b *builder) corpusPiece(body string) uint32 {
	id := b.p.add(body)
	pc := &b.p.pieces[id]
	pc.body = uint32(b.c.count(body))
	pc.start = uint32(b.c.count(body[1:]))
	pc.end = b.endClass(body)
	return id
}

// pieceLen returns the length of the piece at the start of body: up to the
// first word boundary after a sentence end once minPieceBytes are in, or
// the last boundary before maxPieceBytes, or the first after it.
func pieceLen(body string) int {
	last := 0
	for i := 0; i < len(body); {
		j := i + nextBoundary(body[i:])
		if j == len(body) {
			return j
		}
		if j >= maxPieceBytes && last > 0 {
			return last
		}
		if j >= minPieceBytes && endsSentence(body[:j]) || j >= maxPieceBytes {
			return j
		}
		last, i = j, j
	}
	return len(body)
}

// endsSentence reports whether s ends with '.', '!' or '?', perhaps
// followed by closing quotes or brackets.
func endsSentence(s string) bool {
	e := strings.TrimRight(endRun(s), "\"')]”’")
	return e != "" && strings.ContainsAny(e[len(e)-1:], ".!?")
}

// sentenceStart reports whether a piece begins a sentence: the text before
// it ends one and its first letter is upper case.
func sentenceStart(text []byte, pc piece) bool {
	if !endsSentence(string(text[:pc.off])) {
		return false
	}
	r, _ := utf8.DecodeRune(text[pc.off+1:])
	return unicode.IsUpper(r)
}

// verifyCorpus checks corpus pieces in order, wrapping from the last to
// the first, and keeps as run starts only the sentence starts whose start
// form encodes to its claimed count.
func (b *builder) verifyCorpus(v *verifier) {
	var steps []step
	for id := b.corpusFirst; id < b.corpusEnd; id++ {
		steps = append(steps, step{id: id, f: bodyForm})
	}
	steps = append(steps, step{id: b.corpusFirst, f: bodyForm})
	v.run(steps)
	starts := b.corpusStarts[:0]
	for _, id := range b.corpusStarts {
		if !v.p.pieces[id].bad && v.ok([]step{{id: id, f: startForm}}) {
			starts = append(starts, id)
		}
	}
	b.corpusStarts = starts
}

// corpusTables builds the tables of a corpus Synth.
func (b *builder) corpusTables(s *Synth) error {
	ids := make([]uint32, 0, b.corpusEnd-b.corpusFirst)
	for id := b.corpusFirst; id < b.corpusEnd; id++ {
		ids = append(ids, id)
	}
	s.corpus = &corpusTables{
		first:  b.corpusFirst,
		end:    b.corpusEnd,
		starts: b.table(startForm, b.corpusStarts),
		fill:   b.fillTable(bodyForm, ids),
	}
	b.smallTables(s)
	if len(s.corpus.starts.avail) == 0 {
		return errors.New("corpus: no sentence start whose token count could be verified")
	}
	return firstErrors(needFill("corpus pieces", 0, &s.corpus.fill), s.checkSmall())
}

// corpusPrompt writes a run of consecutive corpus pieces from a random
// sentence start, cut before the piece that would overshoot or leave a
// single token, and tops it up to exactly the length with corpus pieces
// or short fillers. Lengths below every sentence start begin with a
// filler and continue at the start of the corpus.
func (s *Synth) corpusPrompt(w *writer, r *rand.Rand) {
	c := s.corpus
	if w.left == 1 {
		id, n := s.one.fit(r, w.p, 1, &s.one)
		w.start(id, n)
		return
	}
	from := c.end - 1
	if id, n, ok := c.starts.atMost(r, w.p, w.left-2); ok {
		w.start(id, n)
		from = id
	} else if c.starts.has(w.left) {
		id, n := c.starts.fit(r, w.p, w.left, &c.fill) // nothing shorter fits, so n == w.left
		w.start(id, n)
		from = id
	} else {
		id, n := s.fillHead.fit(r, w.p, w.left, &c.fill)
		w.start(id, n)
	}
	for next := from + 1; w.left > 0; next++ {
		if next == c.end {
			next = c.first
		}
		pc := &w.p.pieces[next]
		if pc.bad || (int(pc.body) != w.left && int(pc.body)+2 > w.left) {
			break
		}
		w.body(next, int(pc.body))
	}
	w.fill(r, &c.fill, w.left)
}
