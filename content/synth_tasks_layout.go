package content

import "math/rand/v2"

// drift says where the later paragraphs of a prose prompt come from.
type drift uint8

const (
	driftNone   drift = iota // all from the frame's material
	driftTopics              // now and then another topic, as long documents do
	driftDocs                // often another topic: retrieved documents
	driftAdv                 // every other paragraph or so, long nested sentences
)

// frame is what a prose prompt is written from: a head, passages of
// material, and a closing on the head's subject at the end.
type frame struct {
	heads, closes *countTable
	mat           *material // the head's subject
	short         *countTable
	drift         drift
	labels        bool // paragraphs open with "Document k:" (RAG)
}

// taskPrompt writes a prompt of a task style, or of any prose style in a
// language other than English.
func (s *Synth) taskPrompt(w *writer, r *rand.Rand, kd kind) {
	tt := s.tasks
	k := kd.task
	switch {
	case k == tTools:
		s.toolPrompt(w, r)
		return
	case k == tTranslation:
		s.translationPrompt(w, r, kd.li)
		return
	case kd.li != 0:
		l := &tt.langs[kd.li-1]
		s.framePrompt(w, r, &frame{heads: &l.heads, closes: &l.closes, mat: &l.mat, short: &l.shorts})
		return
	}
	ti := r.IntN(len(s.topics))
	f := frame{heads: &tt.heads[ti][k], closes: &tt.closes[ti][k], mat: &tt.topics[ti], short: &tt.shorts[k], drift: driftTopics}
	switch k {
	case tMath:
		f.mat, f.drift = &tt.math, driftNone
	case tRAG:
		f.drift, f.labels = driftDocs, true
	case tAdversarial:
		f.drift = driftAdv
	}
	s.framePrompt(w, r, &f)
}

// framePrompt writes a head line, paragraphs of material, and a last
// paragraph of the head's material ending with a closing. Its budget works
// as prosePrompt's.
func (s *Synth) framePrompt(w *writer, r *rand.Rand, f *frame) {
	id, c, ok := f.heads.atMost(r, w.p, w.left-finalMin-s.sepMax)
	if !ok {
		s.shortFrom(w, r, f.short, &f.mat.body)
		return
	}
	w.start(id, c)
	s.passages(w, r, f, f.mat)
	w.brk()
	w.paragraph(r, &f.mat.start, &f.mat.body, w.left, f.closes)
}

// passages writes paragraphs while more than a last paragraph's room is
// left, starting from material cur.
func (s *Synth) passages(w *writer, r *rand.Rand, f *frame, cur *material) {
	tt := s.tasks
	for doc := 0; ; doc++ {
		room := w.left - s.sepMax - finalMin
		if room < minPara {
			return
		}
		cur = s.drifted(r, f, doc == 0, cur)
		w.brk()
		m := min(room, minPara+r.IntN(maxPara-minPara+1))
		if !f.labels {
			w.paragraph(r, &cur.start, &cur.body, m, nil)
			continue
		}
		id := tt.labels[doc%len(tt.labels)]
		c := int(w.p.pieces[id].start)
		w.start(id, c)
		w.fill(r, &cur.body, m-c)
	}
}

// drifted returns the material of the next paragraph.
func (s *Synth) drifted(r *rand.Rand, f *frame, first bool, cur *material) *material {
	topic := func() *material { return &s.tasks.topics[r.IntN(len(s.tasks.topics))] }
	switch f.drift {
	case driftTopics:
		if !first && r.IntN(4) == 0 {
			return topic()
		}
	case driftDocs:
		if !first && r.IntN(2) == 0 {
			return topic()
		}
	case driftAdv:
		if r.IntN(2) == 0 {
			return &s.tasks.adv
		}
		return f.mat
	}
	return cur
}

// shortFrom writes a whole prompt too small for a head and a passage: a
// short prompt from short, then sentences from fill.
func (s *Synth) shortFrom(w *writer, r *rand.Rand, short, fill *countTable) {
	if w.left == 1 {
		id, c := s.one.fit(r, w.p, 1, &s.one)
		w.start(id, c)
		return
	}
	id, c := short.fit(r, w.p, w.left, fill)
	w.start(id, c)
	w.fill(r, fill, w.left)
}

// translationPrompt writes a request to translate from Languages()[li]
// into another language, and the passage in that language.
func (s *Synth) translationPrompt(w *writer, r *rand.Rand, li int) {
	tt := s.tasks
	f := frame{heads: &tt.transHeads[li], closes: &tt.transCloses, short: &tt.shorts[tTranslation]}
	if li == 0 {
		f.mat, f.drift = &tt.topics[r.IntN(len(tt.topics))], driftTopics
	} else {
		f.mat = &tt.langs[li-1].mat
	}
	s.framePrompt(w, r, &f)
}

// toolPrompt writes a head, tool definitions, background paragraphs, and
// a last paragraph of the request ending with what to do. The budget works
// as codePrompt's.
func (s *Synth) toolPrompt(w *writer, r *rand.Rand) {
	tt := s.tasks
	ti := r.IntN(len(s.topics))
	need := tt.tools.avail[0] + finalMin + 2*s.sepMax
	id, c, ok := tt.heads[ti][tTools].atMost(r, w.p, w.left-need)
	if !ok {
		s.shortFrom(w, r, &tt.shorts[tTools], &tt.toolNotes.body)
		return
	}
	w.start(id, c)
	for range minTools + r.IntN(maxTools-minTools+1) {
		id, n, ok := tt.tools.atMost(r, w.p, w.left-2*s.sepMax-finalMin)
		if !ok {
			break
		}
		w.brk()
		w.start(id, n)
	}
	s.passages(w, r, &frame{drift: driftTopics}, &tt.topics[ti])
	w.brk()
	w.paragraph(r, &tt.toolNotes.start, &tt.toolNotes.body, w.left, &tt.closes[ti][tTools])
}
