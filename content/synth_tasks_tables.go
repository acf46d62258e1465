package content

// taskTables builds the tables of the task pool (see addTasks).
func (b *builder) taskTables(s *Synth) {
	ids := b.tasks
	tt := &taskTables{}
	for _, t := range s.topics {
		tt.topics = append(tt.topics, material{start: t.start, body: t.body})
	}
	for ti := range ids.heads {
		var h, c [numTasks]countTable
		for k := range numTasks {
			h[k] = b.table(startForm, ids.heads[ti][k])
			c[k] = b.table(bodyForm, ids.closes[ti][k])
		}
		tt.heads = append(tt.heads, h)
		tt.closes = append(tt.closes, c)
	}
	for k := range numTasks {
		tt.shorts[k] = b.fillTable(startForm, ids.shorts[k])
	}
	tt.math = b.material(ids.math, nil)
	tt.adv = b.material(ids.adv, nil)
	tt.toolNotes = b.material(ids.toolNotes, nil)
	tt.tools = b.table(startForm, ids.tools)
	for _, id := range ids.labels {
		if !s.pool.pieces[id].bad {
			tt.labels = append(tt.labels, id)
		}
	}
	for _, h := range ids.transHeads {
		tt.transHeads = append(tt.transHeads, b.table(startForm, h))
	}
	tt.transCloses = b.table(bodyForm, ids.transCloses)
	for _, l := range ids.langs {
		lt := langTables{mat: b.material(l.statements, l.fillers)}
		lt.heads = b.table(startForm, l.heads)
		lt.closes = b.table(bodyForm, l.closes)
		lt.shorts = b.langFillTable(startForm, l.shorts, l.fillers)
		tt.langs = append(tt.langs, lt)
	}
	s.tasks = tt
}

// material indexes statements in both forms, with the language's fillers
// (when given) and then the English ones for the counts they lack.
func (b *builder) material(ids, fillers []uint32) material {
	return material{start: b.langFillTable(startForm, ids, fillers), body: b.langFillTable(bodyForm, ids, fillers)}
}

// langFillTable is fillTable with a language's own fillers first: they
// serve the counts ids lack, and English fillers serve the rest.
func (b *builder) langFillTable(f form, ids, fillers []uint32) countTable {
	tb := tableBuilder{p: &b.p, form: f}
	have := map[int]bool{}
	for _, id := range ids {
		tb.add(id, true)
		have[b.p.count(id, f)] = true
	}
	for _, group := range [][]uint32{fillers, b.fillers} {
		added := map[int]bool{}
		for _, id := range group {
			if c := b.p.count(id, f); !have[c] && !b.p.pieces[id].bad {
				tb.add(id, false)
				added[c] = true
			}
		}
		for c := range added {
			have[c] = true
		}
	}
	return tb.build(maxTableCount)
}

// checkTasks reports the task tables that cannot serve every length.
func (s *Synth) checkTasks() []error {
	tt := s.tasks
	var errs []error
	for ti := range tt.heads {
		for k, st := range TaskStyles() {
			if k == tTranslation {
				continue
			}
			errs = append(errs, needAny(string(st)+" heads", ti, &tt.heads[ti][k]), needAny(string(st)+" closings", ti, &tt.closes[ti][k]))
		}
	}
	for k, st := range TaskStyles() {
		errs = append(errs, needFill(string(st)+" short prompts", k, &tt.shorts[k]))
	}
	for _, m := range []struct {
		what string
		mat  *material
	}{{"math statements", &tt.math}, {"adversarial statements", &tt.adv}, {"tool-use notes", &tt.toolNotes}} {
		errs = append(errs, needFill(m.what, 0, &m.mat.start, &m.mat.body))
	}
	errs = append(errs, needAny("tool definitions", 0, &tt.tools), needAny("translation closings", 0, &tt.transCloses))
	for li := range tt.transHeads {
		errs = append(errs, needAny("translation heads", li, &tt.transHeads[li]))
	}
	for li := range tt.langs {
		l := &tt.langs[li]
		name := string(Languages()[li+1])
		errs = append(errs, needFill(name+" statements", li, &l.mat.start, &l.mat.body), needFill(name+" short prompts", li, &l.shorts),
			needAny(name+" heads", li, &l.heads), needAny(name+" closings", li, &l.closes))
	}
	if len(tt.labels) == 0 {
		errs = append(errs, needAny("document labels", 0, &countTable{}))
	}
	return errs
}
