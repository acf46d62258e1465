package content

// verifyBlock is how many pieces one verification encode covers: large
// enough that per-call overhead vanishes, small enough that a failure
// costs little to locate.
const verifyBlock = 64

// step is one piece in a verification sequence.
type step struct {
	id  uint32
	f   form
	brk bool // a paragraph break ("\n\n") comes before the piece, unless it is first
}

// verifier checks claimed counts against the tokenizer by encoding pieces
// as prompts join them, and marks the pieces that do not add up as bad.
type verifier struct {
	tok    Tokenizer
	p      *pool
	breaks []int // cost of a paragraph break after each ending class
	buf    []byte
}

// block verifies one block. On a mismatch it tests every piece alone, and
// after its predecessor when that passed, marks those that fail as bad
// (both pieces of a failing pair), and checks the survivors together once
// more; if they still fail, all are bad.
func (v *verifier) block(steps []step) {
	if v.ok(steps) {
		return
	}
	for i := range steps {
		switch {
		case !v.ok(steps[i : i+1]):
			v.p.pieces[steps[i].id].bad = true
		case i > 0 && !v.p.pieces[steps[i-1].id].bad && !v.ok(steps[i-1:i+1]):
			v.p.pieces[steps[i-1].id].bad = true
			v.p.pieces[steps[i].id].bad = true
		}
	}
	var alive []step
	for _, s := range steps {
		if !v.p.pieces[s.id].bad {
			alive = append(alive, s)
		}
	}
	if !v.ok(alive) {
		for _, s := range alive {
			v.p.pieces[s.id].bad = true
		}
	}
}

// ok reports whether steps, joined as a prompt would join them, encode to
// the sum of their claimed counts and break costs.
func (v *verifier) ok(steps []step) bool {
	v.buf = v.buf[:0]
	want := 0
	for i, s := range steps {
		if i > 0 && s.brk {
			v.buf = append(v.buf, "\n\n"...)
			want += v.breaks[v.p.pieces[steps[i-1].id].end]
		}
		if s.f == startForm {
			v.buf = append(v.buf, v.p.startText(s.id)...)
		} else {
			v.buf = append(v.buf, v.p.bodyText(s.id)...)
		}
		want += v.p.count(s.id, s.f)
	}
	return len(v.tok.Encode(string(v.buf))) == want
}

// run verifies steps in blocks of verifyBlock that share their first step
// with the last of the block before, so every boundary between consecutive
// steps is inside some block.
func (v *verifier) run(steps []step) {
	for len(steps) > 0 {
		k := min(verifyBlock, len(steps))
		v.block(steps[:k])
		if k == len(steps) {
			return
		}
		steps = steps[k-1:]
	}
}
