package content

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Sizes of the built-in pool. A 32k-token prompt holds about 2,000
// sentences; with about 10,000 statements over 24 topics and topics
// switching between paragraphs, few repeat within a prompt.
const (
	statementsPerTopic = 400
	codeNotes          = 400
	blocksPerTemplate  = 24
	headsPerTemplate   = 3
	closesPerTemplate  = 3
	shortsPerTemplate  = 6
	maxTableCount      = 512          // longer pieces are never chosen by count
	poolSeed           = 0x5375726765 // "Surge": the built-in text never changes with the run's seed
)

// topicIDs are the ids of one topic's pieces, by use.
type topicIDs struct {
	statements    []uint32
	heads, closes [iCode][]uint32
}

// builder accumulates a pool and the roles of its pieces for NewSynth.
type builder struct {
	tok     Tokenizer
	c       *counter
	p       pool
	seen    map[string]uint32 // body text → id, so a piece is stored once
	ends    map[string]uint8  // ending run → class
	endRuns []string          // class → ending run
	blocks  []uint32          // pieces that are code blocks: no body form

	topics                 []topicIDs
	codeNotes, codeCloses  []uint32
	codeHeads, codeBlocks  [][]uint32
	shorts                 [numStyles][]uint32
	fillers, ones          []uint32
	corpusFirst, corpusEnd uint32 // corpus pieces are ids [corpusFirst, corpusEnd)
	corpusStarts           []uint32
	tasks                  *taskIDs // nil unless SynthConfig.Tasks
}

func newBuilder(tok Tokenizer) *builder {
	return &builder{tok: tok, c: newCounter(tok), seen: map[string]uint32{}, ends: map[string]uint8{}}
}

// sentence stores text (a sentence without a leading space) and returns
// its id; counts come from its words.
func (b *builder) sentence(text string) uint32 {
	body := " " + text
	if id, ok := b.seen[body]; ok {
		return id
	}
	id := b.p.add(body)
	b.seen[body] = id
	pc := &b.p.pieces[id]
	pc.body = uint32(b.c.count(body))
	pc.start = uint32(b.c.count(text))
	pc.end = b.endClass(text)
	return id
}

// block stores a code block, counted by encoding it whole.
func (b *builder) block(text string) uint32 {
	body := " " + text
	if id, ok := b.seen[body]; ok {
		return id
	}
	id := b.p.add(body)
	b.seen[body] = id
	b.blocks = append(b.blocks, id)
	pc := &b.p.pieces[id]
	pc.start = uint32(len(b.tok.Encode(text)))
	pc.end = b.endClass(text)
	return id
}

// endClass returns the class of text's ending run, adding it if new.
func (b *builder) endClass(text string) uint8 {
	e := endRun(text)
	if k, ok := b.ends[e]; ok {
		return k
	}
	if len(b.endRuns) == 255 {
		return b.ends[""] // unreachable with sane text; verification catches a wrong cost
	}
	k := uint8(len(b.endRuns))
	b.ends[e] = k
	b.endRuns = append(b.endRuns, e)
	return k
}

// expandAll stores k expansions of each template for topic t.
func (b *builder) expandAll(e *expander, tmpls []string, k int) []uint32 {
	var ids []uint32
	var buf []byte
	for _, tm := range tmpls {
		for range k {
			buf = e.expand(buf[:0], tm)
			ids = append(ids, b.sentence(string(buf)))
		}
	}
	return dedupe(ids)
}

// addBuiltin generates the built-in pool: statements, heads and closings
// for every topic, then the code snippets and notes.
func (b *builder) addBuiltin() {
	v := sharedVocab()
	stmts := statementTemplates()
	for ti, t := range topics() {
		e := &expander{r: rand.New(rand.NewPCG(poolSeed, uint64(ti))), t: &t, v: &v}
		var ids topicIDs
		var buf []byte
		for range statementsPerTopic {
			buf = e.expand(buf[:0], pick(e.r, stmts))
			ids.statements = append(ids.statements, b.sentence(string(buf)))
		}
		ids.statements = dedupe(ids.statements)
		for st := range iCode {
			ids.heads[st] = b.expandAll(e, headTemplates(styles()[st]), headsPerTemplate)
			ids.closes[st] = b.expandAll(e, closeTemplates(styles()[st]), closesPerTemplate)
		}
		b.topics = append(b.topics, ids)
	}
	b.addCode(&v)
}

// addCode generates the code blocks, heads, notes and closings.
func (b *builder) addCode(v *shared) {
	r := rand.New(rand.NewPCG(poolSeed, 1<<32))
	ct := codeTopic()
	e := &expander{r: r, t: &ct, v: v}
	notes := codeStatementTemplates()
	var buf []byte
	for range codeNotes {
		buf = e.expand(buf[:0], pick(r, notes))
		b.codeNotes = append(b.codeNotes, b.sentence(string(buf)))
	}
	b.codeNotes = dedupe(b.codeNotes)
	b.codeCloses = b.expandAll(e, codeCloseTemplates(), closesPerTemplate)
	es := entities()
	for li, l := range langs() {
		var heads, blocks []uint32
		for _, h := range codeHeadTemplates() {
			heads = append(heads, b.sentence(strings.ReplaceAll(h, "{lang}", l.name)))
		}
		for _, tm := range codeTemplates()[li] {
			for range blocksPerTemplate {
				blocks = append(blocks, b.block(expandCode(r, l, tm, es)))
			}
		}
		b.codeHeads = append(b.codeHeads, heads)
		b.codeBlocks = append(b.codeBlocks, dedupe(blocks))
	}
}

// addSmall stores the short prompts, fillers and one-word prompts that
// every Synth needs, with or without a corpus.
func (b *builder) addSmall() {
	v := sharedVocab()
	ts := topics()
	r := rand.New(rand.NewPCG(poolSeed, 1<<33))
	for st, style := range styles() {
		for _, tm := range shortTemplates(style) {
			n := shortsPerTemplate
			if !strings.Contains(tm, "{") {
				n = 1
			}
			for range n {
				e := &expander{r: r, t: &ts[r.IntN(len(ts))], v: &v}
				b.shorts[st] = append(b.shorts[st], b.sentence(string(e.expand(nil, tm))))
			}
		}
		b.shorts[st] = dedupe(b.shorts[st])
	}
	for _, f := range fillerTexts() {
		b.fillers = append(b.fillers, b.sentence(f))
	}
	for _, o := range oneWordTexts() {
		b.ones = append(b.ones, b.sentence(o))
	}
}

// finish measures break costs, verifies the pool, and builds the tables.
func (b *builder) finish() (*Synth, error) {
	s := &Synth{pool: b.p}
	sum := sha256.Sum256(b.p.text)
	s.hash = "sha256:" + hex.EncodeToString(sum[:])
	for _, e := range b.endRuns {
		cost := b.c.encoded(e+"\n\n") - b.c.encoded(e)
		s.breaks = append(s.breaks, cost)
		s.sepMax = max(s.sepMax, cost)
	}
	b.verify(s)
	bad := 0
	for _, pc := range s.pool.pieces {
		if pc.bad {
			bad++
		}
	}
	if bad*2 > len(s.pool.pieces) {
		return nil, fmt.Errorf("token counts do not add up when text is joined at word boundaries: %d of %d pieces failed verification", bad, len(s.pool.pieces))
	}
	if b.corpusEnd > b.corpusFirst {
		return s, b.corpusTables(s)
	}
	return s, b.builtinTables(s)
}

// verify checks every piece's body form after the piece before it in the
// pool, and every start form after a paragraph break in a shuffled order
// that puts code blocks, sentences and questions next to each other.
// Corpus pieces are checked in corpus order instead (verifyCorpus).
func (b *builder) verify(s *Synth) {
	v := &verifier{tok: b.tok, p: &s.pool, breaks: s.breaks}
	skip := make([]bool, len(s.pool.pieces))
	for id := b.corpusFirst; id < b.corpusEnd; id++ {
		skip[id] = true
	}
	isBlock := make([]bool, len(s.pool.pieces))
	for _, id := range b.blocks {
		isBlock[id] = true
	}
	var body, start []step
	for id := range s.pool.pieces {
		if skip[id] {
			continue
		}
		if !isBlock[id] {
			body = append(body, step{id: uint32(id), f: bodyForm})
		}
		start = append(start, step{id: uint32(id), f: startForm, brk: true})
	}
	v.run(body)
	r := rand.New(rand.NewPCG(poolSeed, 1<<34))
	r.Shuffle(len(start), func(i, j int) { start[i], start[j] = start[j], start[i] })
	v.run(start)
	if b.corpusEnd > b.corpusFirst {
		b.verifyCorpus(v)
	}
}
