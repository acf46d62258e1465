package content

import "math/rand/v2"

// Layout of built-in prompts, in tokens.
const (
	minPara  = 40  // shortest paragraph of a passage
	maxPara  = 160 // longest paragraph of a passage
	finalMin = 24  // the last paragraph keeps room for a closing question
	minNote  = 12  // shortest note between code blocks
	maxNote  = 50  // longest note between code blocks
)

// writer appends pieces to a prompt and counts the tokens still owed.
type writer struct {
	p      *pool
	breaks []int
	dst    []byte
	left   int   // tokens still to write
	end    uint8 // ending class of the last piece written
}

// start appends the start form of piece id, of c tokens.
func (w *writer) start(id uint32, c int) {
	w.dst = append(w.dst, w.p.startText(id)...)
	w.left -= c
	w.end = w.p.pieces[id].end
}

// body appends the body form of piece id, of c tokens.
func (w *writer) body(id uint32, c int) {
	w.dst = append(w.dst, w.p.bodyText(id)...)
	w.left -= c
	w.end = w.p.pieces[id].end
}

// brk appends a paragraph break, whose cost depends on the last piece's ending.
func (w *writer) brk() {
	w.dst = append(w.dst, '\n', '\n')
	w.left -= w.breaks[w.end]
}

// fill appends body forms from t worth exactly m tokens; m must not be 1.
func (w *writer) fill(r *rand.Rand, t *countTable, m int) {
	for m > 0 {
		id, c := t.fit(r, w.p, m, t)
		w.body(id, c)
		m -= c
	}
}

// paragraph appends a paragraph of exactly m >= 2 tokens: a sentence from
// start, more from body, and a closing piece from closes when one fits.
func (w *writer) paragraph(r *rand.Rand, start, body *countTable, m int, closes *countTable) {
	var q uint32
	qc := 0
	if closes != nil {
		if id, c, ok := closes.closing(r, w.p, m, body); ok {
			q, qc = id, c
			m -= c
		}
	}
	id, c := start.fit(r, w.p, m, body)
	w.start(id, c)
	w.fill(r, body, m-c)
	if qc > 0 {
		w.body(q, qc)
	}
}

// short writes a whole prompt too small for a head and a passage: a short
// request, then sentences from fill.
func (s *Synth) short(w *writer, r *rand.Rand, st int, fill *countTable) {
	if w.left == 1 {
		id, c := s.one.fit(r, w.p, 1, &s.one)
		w.start(id, c)
		return
	}
	id, c := s.shorts[st].fit(r, w.p, w.left, fill)
	w.start(id, c)
	w.fill(r, fill, w.left)
}

// prosePrompt writes a head line, paragraphs on the head's topic (later
// ones drift to another topic now and then, as long documents do), and a
// last paragraph on the head's topic that ends with a question or
// constraint about it.
//
// Token budget: each paragraph of L tokens is chosen with
// L <= left - sepMax - finalMin, so after its break and text at least
// finalMin tokens remain, and the last paragraph gets at least
// finalMin - sepMax >= 2.
func (s *Synth) prosePrompt(w *writer, r *rand.Rand, st int) {
	t := &s.topics[r.IntN(len(s.topics))]
	id, c, ok := t.heads[st].atMost(r, w.p, w.left-finalMin-s.sepMax)
	if !ok {
		s.short(w, r, st, &t.body)
		return
	}
	w.start(id, c)
	cur := t
	for first := true; ; first = false {
		room := w.left - s.sepMax - finalMin
		if room < minPara {
			break
		}
		if !first && r.IntN(4) == 0 {
			cur = &s.topics[r.IntN(len(s.topics))]
		}
		w.brk()
		w.paragraph(r, &cur.start, &cur.body, min(room, minPara+r.IntN(maxPara-minPara+1)), nil)
	}
	w.brk()
	w.paragraph(r, &t.start, &t.body, w.left, &t.closes[st])
}

// codePrompt writes a head line naming a language, code blocks in it with
// an occasional note between them, and a last paragraph of notes ending in
// a question. The budget works as in prosePrompt, with a second break
// reserved for the one after each block.
func (s *Synth) codePrompt(w *writer, r *rand.Rand) {
	c := &s.code
	li := r.IntN(len(c.heads))
	if w.left < c.min[li] {
		s.short(w, r, iCode, &c.body)
		return
	}
	id, n, _ := c.heads[li].atMost(r, w.p, w.left-c.min[li]+c.heads[li].avail[0])
	w.start(id, n)
	for {
		id, n, ok := c.blocks[li].atMost(r, w.p, w.left-2*s.sepMax-finalMin)
		if !ok {
			break
		}
		w.brk()
		w.start(id, n)
		if note := minNote + r.IntN(maxNote-minNote+1); r.IntN(2) == 0 && note <= w.left-2*s.sepMax-finalMin {
			w.brk()
			w.paragraph(r, &c.start, &c.body, note, nil)
		}
	}
	w.brk()
	w.paragraph(r, &c.start, &c.body, w.left, &c.closes)
}
