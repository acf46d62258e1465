package content

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The indexes of TaskStyles().
const (
	tCreative = iota
	tAnalysis
	tExtraction
	tMath
	tTools
	tLongQA
	tRAG
	tChat
	tTranslation
	tAdversarial
	tCopy
	numTasks
)

// Sizes of the task pool.
const (
	taskStatements     = 400 // math and adversarial sentences, tool-use notes
	langStatements     = 600 // statements per language
	langHeadsPerTmpl   = 4
	langClosesPerTmpl  = 3
	langShortsPerTmpl  = 3
	minTools, maxTools = 1, 8 // tool definitions in a tool-use prompt
)

// taskIndex returns the index of s in TaskStyles(), or -1.
func taskIndex(s Style) int {
	switch s {
	case StyleCreative:
		return tCreative
	case StyleAnalysis:
		return tAnalysis
	case StyleExtraction:
		return tExtraction
	case StyleMath:
		return tMath
	case StyleTools:
		return tTools
	case StyleLongQA:
		return tLongQA
	case StyleRAG:
		return tRAG
	case StyleChat:
		return tChat
	case StyleTranslation:
		return tTranslation
	case StyleAdversarial:
		return tAdversarial
	case StyleCopy:
		return tCopy
	}
	return -1
}

// langIndex returns the index of l in Languages(), or -1.
func langIndex(l Language) int {
	switch l {
	case English:
		return 0
	case Spanish:
		return 1
	case French:
		return 2
	case German:
		return 3
	case Chinese:
		return 4
	case Japanese:
		return 5
	case Arabic:
		return 6
	case Hindi:
		return 7
	case Russian:
		return 8
	}
	return -1
}

// material is the statements a passage is written from.
type material struct{ start, body countTable }

// langTables are the pieces of one language other than English.
type langTables struct {
	mat                   material
	heads, closes, shorts countTable
}

// taskTables are the pieces of the task styles and languages.
type taskTables struct {
	topics        []material               // the English topics' statements, as in Synth.topics
	heads, closes []([numTasks]countTable) // per topic and task, start and body form
	shorts        [numTasks]countTable
	math, adv     material
	toolNotes     material
	tools         countTable // tool definitions, start form
	labels        []uint32   // RAG document labels, in order
	transHeads    []countTable
	transCloses   countTable
	langs         []langTables // by langIndex - 1
}

// taskIDs are the ids of the task pool's pieces, by use.
type taskIDs struct {
	heads, closes        [][numTasks][]uint32
	shorts               [numTasks][]uint32
	math, adv, toolNotes []uint32
	tools, labels        []uint32
	transHeads           [][]uint32
	transCloses          []uint32
	langs                []langIDs
}

// langIDs are the ids of one language's pieces.
type langIDs struct{ statements, heads, closes, shorts, fillers []uint32 }

// addTasks generates the task pool: per-topic heads and closes of every
// task style, the math, adversarial and tool-use material, the RAG labels,
// the translation requests and the other languages' text. It draws from
// its own random streams, so the pieces before it do not change.
func (b *builder) addTasks() {
	v := sharedVocab()
	ts := topics()
	ids := &taskIDs{}
	for ti := range ts {
		e := &expander{r: rand.New(rand.NewPCG(poolSeed, 1<<40+uint64(ti))), t: &ts[ti], v: &v}
		var h, c [numTasks][]uint32
		for k, st := range TaskStyles() {
			h[k] = b.expandAll(e, taskHeadTemplates(st), headsPerTemplate)
			c[k] = b.expandAll(e, taskCloseTemplates(st), closesPerTemplate)
		}
		ids.heads = append(ids.heads, h)
		ids.closes = append(ids.closes, c)
	}
	r := rand.New(rand.NewPCG(poolSeed, 1<<41))
	mixed := func(tmpls []string, n int) []uint32 {
		var out []uint32
		var buf []byte
		for range n {
			e := &expander{r: r, t: &ts[r.IntN(len(ts))], v: &v}
			buf = e.expand(buf[:0], pick(r, tmpls))
			out = append(out, b.sentence(string(buf)))
		}
		return dedupe(out)
	}
	for k, st := range TaskStyles() {
		ids.shorts[k] = mixed(taskShortTemplates(st), 6*len(taskShortTemplates(st)))
	}
	ids.math = mixed(mathStatementTemplates(), taskStatements)
	ids.adv = mixed(adversarialStatementTemplates(), taskStatements)
	ids.toolNotes = mixed(toolNoteTemplates(), taskStatements)
	for _, t := range toolBlocks() {
		ids.tools = append(ids.tools, b.block(t))
	}
	for k := 1; k <= maxRAGLabel; k++ {
		ids.labels = append(ids.labels, b.sentence(ragLabel(k)))
	}
	b.addTranslation(ids)
	for li, lt := range langTexts() {
		ids.langs = append(ids.langs, b.addLanguage(&lt, rand.New(rand.NewPCG(poolSeed, 1<<42+uint64(li)))))
	}
	b.tasks = ids
}

// addTranslation stores the translation requests of every language pair.
func (b *builder) addTranslation(ids *taskIDs) {
	for _, src := range Languages() {
		var heads []uint32
		for _, dst := range Languages() {
			if dst == src {
				continue
			}
			for _, tm := range translationHeadTemplates() {
				s := strings.ReplaceAll(tm, "{src}", languageName(src))
				heads = append(heads, b.sentence(strings.ReplaceAll(s, "{dst}", languageName(dst))))
			}
			short := "Translate this into " + languageName(dst) + "."
			ids.shorts[tTranslation] = append(ids.shorts[tTranslation], b.sentence(short))
		}
		ids.transHeads = append(ids.transHeads, heads)
	}
	for _, c := range translationCloseTemplates() {
		ids.transCloses = append(ids.transCloses, b.sentence(c))
	}
	ids.shorts[tTranslation] = dedupe(ids.shorts[tTranslation])
}

// addLanguage stores one language's statements, heads, closes, short
// prompts and fillers.
func (b *builder) addLanguage(l *langText, r *rand.Rand) langIDs {
	e := &langExpander{r: r, l: l}
	var ids langIDs
	var buf []byte
	expand := func(tmpls []string, n int, each bool) []uint32 {
		var out []uint32
		if each {
			for _, tm := range tmpls {
				for range n {
					buf = e.expand(buf[:0], tm)
					out = append(out, b.sentence(string(buf)))
				}
			}
			return dedupe(out)
		}
		for range n {
			buf = e.expand(buf[:0], pick(r, tmpls))
			out = append(out, b.sentence(string(buf)))
		}
		return dedupe(out)
	}
	ids.statements = expand(l.statements, langStatements, false)
	ids.heads = expand(l.heads, langHeadsPerTmpl, true)
	ids.closes = expand(l.closes, langClosesPerTmpl, true)
	ids.shorts = expand(l.shorts, langShortsPerTmpl, true)
	for _, f := range l.fillers {
		ids.fillers = append(ids.fillers, b.sentence(f))
	}
	return ids
}

// langExpander fills the slots of one language's templates.
type langExpander struct {
	r     *rand.Rand
	l     *langText
	agent string
	year  int
}

// expand appends tmpl with its slots filled.
func (e *langExpander) expand(dst []byte, tmpl string) []byte {
	e.agent, e.year = "", 0
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			return append(dst, tmpl...)
		}
		dst = append(dst, tmpl[:i]...)
		j := i + strings.IndexByte(tmpl[i:], '}')
		name := tmpl[i+1 : j]
		val := e.slot(strings.ToLower(name))
		if name[0] >= 'A' && name[0] <= 'Z' {
			val = capitalizeRune(val)
		}
		dst = append(dst, val...)
		tmpl = tmpl[j+1:]
	}
}

// slot returns a value for the named slot.
func (e *langExpander) slot(name string) string {
	r, l := e.r, e.l
	switch name {
	case "a":
		a := pick(r, l.agents)
		for a == e.agent {
			a = pick(r, l.agents)
		}
		e.agent = a
		return a
	case "t":
		return pick(r, l.things)
	case "p":
		return pick(r, l.places)
	case "y":
		e.year = 1998 + r.IntN(22)
		return strconv.Itoa(e.year)
	case "y2":
		if e.year == 0 {
			e.year = 1998 + r.IntN(22)
		}
		return strconv.Itoa(e.year + 1 + r.IntN(2024-e.year))
	case "n":
		return strconv.Itoa(12 + r.IntN(939))
	case "m":
		return strconv.Itoa(2 + r.IntN(29))
	case "pct":
		return strconv.Itoa(2 + r.IntN(59))
	}
	panic("content: unknown language template slot {" + name + "}")
}

// capitalizeRune upper-cases the first letter of s, in any script that
// has case.
func capitalizeRune(s string) string {
	c, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(c) {
		return s
	}
	return string(unicode.ToUpper(c)) + s[n:]
}
