package content

import (
	"math/rand/v2"
	"slices"
)

// piece is one unit of prompt text: a sentence, a code block or a run of
// corpus text. Its body form text[off:off+n] begins with a space and
// follows a piece that ends in a non-space; its start form drops that
// space and begins a prompt or follows a paragraph break ("\n\n").
type piece struct {
	off, n uint32
	body   uint32 // tokens of the body form in context
	start  uint32 // tokens of the start form in context
	end    uint8  // index in Synth.breaks: the cost of a paragraph break after the piece
	bad    bool   // failed verification: in no table
}

// pool is the text of all pieces, stored once.
type pool struct {
	text   []byte
	pieces []piece
}

// add stores body (which must begin with a space) as a new piece and
// returns its id.
func (p *pool) add(body string) uint32 {
	id := uint32(len(p.pieces))
	p.pieces = append(p.pieces, piece{off: uint32(len(p.text)), n: uint32(len(body))})
	p.text = append(p.text, body...)
	return id
}

// bodyText returns the body form of piece id.
func (p *pool) bodyText(id uint32) []byte {
	pc := &p.pieces[id]
	return p.text[pc.off : pc.off+pc.n]
}

// startText returns the start form of piece id.
func (p *pool) startText(id uint32) []byte {
	pc := &p.pieces[id]
	return p.text[pc.off+1 : pc.off+pc.n]
}

// form selects which count of a piece a table is about.
type form uint8

const (
	bodyForm form = iota
	startForm
)

// count returns the tokens of piece id in form f.
func (p *pool) count(id uint32, f form) int {
	if f == startForm {
		return int(p.pieces[id].start)
	}
	return int(p.pieces[id].body)
}

// countTable indexes pieces by their token count in one form, so that a
// fill can choose a piece of an exact count in O(1).
type countTable struct {
	form     form
	byCount  [][]uint32 // byCount[c]: the pieces of c tokens
	avail    []int      // the counts c with pieces, ascending
	upto     []int      // upto[m]: how many avail counts are <= m, for m < len(upto)
	main     []uint32   // the pieces drawn uniformly, ascending by count
	mainUpTo []int      // mainUpTo[m]: how many main pieces have at most m tokens
	max      int        // the largest count
	isMain   []bool     // isMain[c]: the pieces of c tokens are main pieces
	reach    []bool     // reach[m]: main pieces alone can sum to m, for m < len(reach)
}

// tableBuilder collects the pieces of a countTable.
type tableBuilder struct {
	p    *pool
	form form
	ids  []uint32
	main []bool
}

// add puts piece id in the table unless it failed verification. Only main
// pieces are drawn uniformly; the others (fillers) serve exact counts.
func (b *tableBuilder) add(id uint32, main bool) {
	if b.p.pieces[id].bad || b.p.count(id, b.form) == 0 {
		return
	}
	b.ids = append(b.ids, id)
	b.main = append(b.main, main)
}

// build returns the table; counts above maxCount are left out.
func (b *tableBuilder) build(maxCount int) countTable {
	t := countTable{form: b.form}
	for i, id := range b.ids {
		c := b.p.count(id, b.form)
		if c > maxCount {
			continue
		}
		for len(t.byCount) <= c {
			t.byCount = append(t.byCount, nil)
		}
		t.byCount[c] = append(t.byCount[c], id)
		if b.main[i] {
			t.main = append(t.main, id)
		}
	}
	t.upto = make([]int, len(t.byCount))
	for c, ids := range t.byCount {
		if len(ids) > 0 {
			t.avail = append(t.avail, c)
			t.max = c
		}
		t.upto[c] = len(t.avail)
	}
	if len(t.main) == 0 {
		for _, ids := range t.byCount {
			t.main = append(t.main, ids...)
		}
	}
	slices.SortStableFunc(t.main, func(x, y uint32) int { return b.p.count(x, b.form) - b.p.count(y, b.form) })
	t.isMain = make([]bool, len(t.byCount))
	t.mainUpTo = make([]int, len(t.byCount))
	for i, id := range t.main {
		c := b.p.count(id, b.form)
		t.isMain[c] = true
		t.mainUpTo[c] = i + 1
	}
	for c := 1; c < len(t.mainUpTo); c++ {
		t.mainUpTo[c] = max(t.mainUpTo[c], t.mainUpTo[c-1])
	}
	t.reach = reachable(t.isMain, 2*t.max+2)
	return t
}

// reachable returns, for m in [0, n), whether sums of counts c with
// isMain[c] (each used any number of times) can make m:
// reach[m] = OR over such c <= m of reach[m-c], with reach[0] = true.
func reachable(isMain []bool, n int) []bool {
	reach := make([]bool, n)
	reach[0] = true
	for m := 1; m < n; m++ {
		for c := 1; c <= m && c < len(isMain) && !reach[m]; c++ {
			reach[m] = isMain[c] && reach[m-c]
		}
	}
	return reach
}

// reachable reports whether main pieces alone can fill exactly m tokens;
// beyond the computed range it assumes so, which only costs a preference.
func (t *countTable) reachable(m int) bool {
	return m >= len(t.reach) || m >= 0 && t.reach[m]
}

// has reports whether the table holds a piece of exactly c tokens.
func (t *countTable) has(c int) bool { return c < len(t.byCount) && len(t.byCount[c]) > 0 }

// counted returns how many distinct counts are <= m.
func (t *countTable) counted(m int) int {
	if m >= len(t.upto) {
		return len(t.avail)
	}
	if m < 0 {
		return 0
	}
	return t.upto[m]
}

// fit returns a piece of c tokens, c <= m, for a fill of m tokens whose
// remainder m-c pieces of then will fill. It prefers a main piece drawn
// uniformly among those of at most m tokens whose remainder main pieces
// of then can fill exactly, so that fillers come in only when nothing else
// fits. Its fallback draws counts uniformly among those the table has and
// keeps m-c at 0 or at least 2. It needs m >= 1, and counts 2 and 3 in the
// table when m >= 2 (or 1 when m == 1); NewSynth checks they are there.
//
// Why a remainder of 1 is avoided: prose has no one-token sentence, and
// with counts 2 and 3 present every remainder r >= 2 is reachable (r = 2,
// r = 3, or 2 then r-2 >= 2).
func (t *countTable) fit(r *rand.Rand, p *pool, m int, then *countTable) (uint32, int) {
	if k := t.mainCounted(m); k > 0 {
		for range 8 {
			id := t.main[r.IntN(k)]
			if c := p.count(id, t.form); then.reachable(m - c) {
				return id, c
			}
		}
	}
	k := t.counted(m)
	if k == 0 {
		panic("content: no piece fits (NewSynth checks coverage)")
	}
	i := r.IntN(k)
	c := t.avail[i]
	if m-c == 1 {
		// avail[i+1] is then m itself; avail[i-1] leaves at least 2.
		switch {
		case i+1 < k:
			c = t.avail[i+1]
		case i > 0:
			c = t.avail[i-1]
		default:
			panic("content: no piece fits (NewSynth checks coverage)")
		}
	}
	ids := t.byCount[c]
	return ids[r.IntN(len(ids))], c
}

// mainCounted returns how many main pieces have at most m tokens.
func (t *countTable) mainCounted(m int) int {
	if m >= len(t.mainUpTo) {
		return len(t.main)
	}
	if m < 0 {
		return 0
	}
	return t.mainUpTo[m]
}

// closing returns a piece of at most m-2 tokens that leaves a remainder
// main pieces of then can fill, or failing that any piece of at most m-2
// tokens; ok is false when none is that short.
func (t *countTable) closing(r *rand.Rand, p *pool, m int, then *countTable) (id uint32, c int, ok bool) {
	for range 8 {
		id = t.main[r.IntN(len(t.main))]
		if c = p.count(id, t.form); c <= m-2 && then.reachable(m-c) {
			return id, c, true
		}
	}
	return t.atMost(r, p, m-2)
}

// atMost returns a piece of at most limit tokens, preferring a uniform
// draw among main pieces; ok is false when none is that short.
func (t *countTable) atMost(r *rand.Rand, p *pool, limit int) (id uint32, c int, ok bool) {
	if len(t.main) > 0 {
		id = t.main[r.IntN(len(t.main))]
		if c = p.count(id, t.form); c <= limit {
			return id, c, true
		}
	}
	k := t.counted(limit)
	if k == 0 {
		return 0, 0, false
	}
	c = t.avail[r.IntN(k)]
	ids := t.byCount[c]
	return ids[r.IntN(len(ids))], c, true
}
