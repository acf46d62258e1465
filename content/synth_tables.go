package content

import (
	"errors"
	"fmt"
)

// builtinTables builds the tables of the built-in text and checks that
// every fill can reach every count.
func (b *builder) builtinTables(s *Synth) error {
	for _, ids := range b.topics {
		var t topicTables
		t.start = b.fillTable(startForm, ids.statements)
		t.body = b.fillTable(bodyForm, ids.statements)
		for st := range iCode {
			t.heads[st] = b.table(startForm, ids.heads[st])
			t.closes[st] = b.table(bodyForm, ids.closes[st])
		}
		s.topics = append(s.topics, t)
	}
	c := &s.code
	c.start = b.fillTable(startForm, b.codeNotes)
	c.body = b.fillTable(bodyForm, b.codeNotes)
	c.closes = b.table(bodyForm, b.codeCloses)
	for li := range b.codeHeads {
		c.heads = append(c.heads, b.table(startForm, b.codeHeads[li]))
		c.blocks = append(c.blocks, b.table(startForm, b.codeBlocks[li]))
	}
	b.smallTables(s)
	if b.tasks != nil {
		b.taskTables(s)
	}
	if err := s.checkBuiltin(); err != nil {
		return err
	}
	for li := range c.heads {
		c.min = append(c.min, c.heads[li].avail[0]+c.blocks[li].avail[0]+finalMin+2*s.sepMax)
	}
	return nil
}

// smallTables builds the tables of short prompts and fillers.
func (b *builder) smallTables(s *Synth) {
	for st := range numStyles {
		s.shorts[st] = b.fillTable(startForm, b.shorts[st])
	}
	tb := tableBuilder{p: &s.pool, form: startForm}
	for _, id := range b.ones {
		if s.pool.pieces[id].start == 1 {
			tb.add(id, true)
		}
	}
	s.one = tb.build(1)
	s.fillBody = b.table(bodyForm, b.fillers)
	s.fillHead = b.table(startForm, b.fillers)
}

// table indexes ids, all drawn uniformly.
func (b *builder) table(f form, ids []uint32) countTable {
	tb := tableBuilder{p: &b.p, form: f}
	for _, id := range ids {
		tb.add(id, true)
	}
	return tb.build(maxTableCount)
}

// fillTable indexes ids, plus the fillers of counts that ids lack.
func (b *builder) fillTable(f form, ids []uint32) countTable {
	tb := tableBuilder{p: &b.p, form: f}
	have := map[int]bool{}
	for _, id := range ids {
		tb.add(id, true)
		have[b.p.count(id, f)] = true
	}
	for _, id := range b.fillers {
		if c := b.p.count(id, f); !have[c] && !b.p.pieces[id].bad {
			tb.add(id, false)
		}
	}
	return tb.build(maxTableCount)
}

// checkBuiltin reports the tables that cannot serve every length.
func (s *Synth) checkBuiltin() error {
	var errs []error
	for ti := range s.topics {
		t := &s.topics[ti]
		errs = append(errs, needFill("statements", ti, &t.start, &t.body))
		for st := range iCode {
			errs = append(errs, needAny("heads", ti, &t.heads[st]), needAny("closings", ti, &t.closes[st]))
		}
	}
	c := &s.code
	errs = append(errs, needFill("code notes", 0, &c.start, &c.body), needAny("code closings", 0, &c.closes))
	for li := range c.heads {
		errs = append(errs, needAny("code heads", li, &c.heads[li]), needAny("code blocks", li, &c.blocks[li]))
	}
	if s.tasks != nil {
		errs = append(errs, s.checkTasks()...)
	}
	return firstErrors(append(errs, s.checkSmall())...)
}

// checkSmall reports missing short prompts and fillers.
func (s *Synth) checkSmall() error {
	var errs []error
	for st := range numStyles {
		errs = append(errs, needFill("short prompts", st, &s.shorts[st]))
	}
	if !s.one.has(1) {
		errs = append(errs, errors.New("no one-word prompt is a single token"))
	}
	return firstErrors(append(errs, needFill("fillers", 0, &s.fillBody, &s.fillHead))...)
}

// firstErrors joins the first three non-nil errors and counts the rest.
func firstErrors(errs ...error) error {
	var out []error
	n := 0
	for _, err := range errs {
		if err == nil {
			continue
		}
		if n++; n <= 3 {
			out = append(out, err)
		}
	}
	if n > 3 {
		out = append(out, fmt.Errorf("and %d more", n-3))
	}
	return errors.Join(out...)
}

// needFill reports a fill table without pieces of 2 and 3 tokens.
func needFill(what string, i int, ts ...*countTable) error {
	for _, t := range ts {
		if !t.has(2) || !t.has(3) {
			return fmt.Errorf("%s #%d: no verified piece of 2 or 3 tokens", what, i)
		}
	}
	return nil
}

// needAny reports an empty table.
func needAny(what string, i int, t *countTable) error {
	if len(t.avail) == 0 {
		return fmt.Errorf("%s #%d: no verified piece", what, i)
	}
	return nil
}

// dedupe removes repeated ids, keeping the first of each.
func dedupe(ids []uint32) []uint32 {
	seen := make(map[uint32]bool, len(ids))
	out := ids[:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
