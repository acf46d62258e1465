package content

import (
	"fmt"
	"math/rand/v2"
)

// Style is the kind of text a synthetic prompt holds.
type Style string

// The styles of synthetic prompts. Each but StyleMixed reads like a real
// request: a task on a line of its own, the material it is about, and a
// closing question or constraint.
const (
	// StyleMixed picks one of the other styles for each prompt.
	StyleMixed Style = "mixed"
	// StyleQuestion is background paragraphs ending in a question.
	StyleQuestion Style = "question"
	// StyleInstruction is a writing task, notes to work from, and a constraint.
	StyleInstruction Style = "instruction"
	// StyleSummarize is a request for a summary, the passage, and a focus.
	StyleSummarize Style = "summarize"
	// StyleCode is a request about code, fenced code blocks in Python, Go,
	// JavaScript or SQL with notes between them, and a question.
	StyleCode Style = "code"
)

// The task styles, which need SynthConfig.Tasks. Their passages are the
// topics' statements unless said otherwise.
const (
	// StyleCreative asks for a story, poem, dialogue or scene from notes.
	StyleCreative Style = "creative"
	// StyleAnalysis asks to compare, weigh or assess what a passage says.
	StyleAnalysis Style = "analysis"
	// StyleExtraction asks to extract or classify what a given document holds.
	StyleExtraction Style = "extraction"
	// StyleMath is a word problem, in sentences with figures, to be solved
	// step by step.
	StyleMath Style = "math"
	// StyleTools lists tool definitions as JSON, background paragraphs, and
	// a request that needs the tools.
	StyleTools Style = "tool_use"
	// StyleLongQA is a long report with a question about it at the end.
	StyleLongQA Style = "long_qa"
	// StyleRAG is retrieved documents, each labelled "Document k:" and
	// often on another topic, and a question to answer from them.
	StyleRAG Style = "rag"
	// StyleChat is a follow-up turn of a conversation: a reply to an
	// earlier answer, more context, and a follow-up question.
	StyleChat Style = "chat"
	// StyleTranslation is a passage in one language with a request, in
	// English, to translate it into another.
	StyleTranslation Style = "translation"
	// StyleAdversarial is phrasing that makes answers hard: instructions
	// that contradict or nest, passages mixing in long sentences of
	// nested clauses and double negatives, and ambiguous questions.
	StyleAdversarial Style = "adversarial"
	// StyleCopy is a passage with a request to repeat it word for word,
	// quote from it verbatim or carry it on: an answer that copies the
	// prompt, which speculative decoding drafts well (the copy key).
	StyleCopy Style = "copy"
)

// TaskStyles returns the task styles, in the order of the Synth's task tables.
func TaskStyles() []Style {
	return []Style{StyleCreative, StyleAnalysis, StyleExtraction, StyleMath, StyleTools,
		StyleLongQA, StyleRAG, StyleChat, StyleTranslation, StyleAdversarial, StyleCopy}
}

// Styles returns every style Prompt accepts: StyleMixed, the first four
// concrete styles, then TaskStyles.
func Styles() []Style {
	return append(append([]Style{StyleMixed}, styles()...), TaskStyles()...)
}

// IsTask reports whether style needs SynthConfig.Tasks.
func IsTask(style Style) bool { return taskIndex(style) >= 0 }

// styles lists the first concrete styles in the order of the Synth's
// per-style tables; StyleMixed chooses among them (and not among the task
// styles, so that traces made before those existed come out the same).
func styles() []Style {
	return []Style{StyleQuestion, StyleInstruction, StyleSummarize, StyleCode}
}

// The indexes of styles().
const (
	iQuestion = iota
	iInstruction
	iSummarize
	iCode
	numStyles
)

// CanWrite returns an error unless PromptIn can write prompts of style in
// lang: both must be known, and task styles and languages other than
// English need SynthConfig.Tasks (a Synth of a corpus writes any).
func (s *Synth) CanWrite(style Style, lang Language) error {
	return s.canWrite(resolve(style, lang))
}

// kind is a style and language resolved to their table indexes once per
// prompt.
type kind struct {
	style Style
	lang  Language
	st    int // index in styles(), or -1
	task  int // index in TaskStyles(), or -1
	li    int // index in Languages(), or -1
}

// resolve looks style and lang up.
func resolve(style Style, lang Language) kind {
	return kind{style: style, lang: lang, st: styleIndex(style), task: taskIndex(style), li: langIndex(lang)}
}

// canWrite is CanWrite on a resolved kind.
func (s *Synth) canWrite(k kind) error {
	if k.style != StyleMixed && k.st < 0 && k.task < 0 {
		return fmt.Errorf("unknown prompt style %q", k.style)
	}
	if k.li < 0 {
		return fmt.Errorf("unknown prompt language %q", k.lang)
	}
	if s.corpus == nil && s.tasks == nil && (k.task >= 0 || k.lang != English) {
		return fmt.Errorf("prompt style %s in language %s needs a Synth built with SynthConfig.Tasks", k.style, k.lang)
	}
	return nil
}

// String returns the style's name.
func (s Style) String() string { return string(s) }

// styleIndex returns the index of s in styles(), or -1.
func styleIndex(s Style) int {
	switch s {
	case StyleQuestion:
		return iQuestion
	case StyleInstruction:
		return iInstruction
	case StyleSummarize:
		return iSummarize
	case StyleCode:
		return iCode
	}
	return -1
}

// SynthConfig configures NewSynth. The zero value uses the built-in text.
type SynthConfig struct {
	// Corpus, when not empty, replaces the built-in text. It is UTF-8 text,
	// or JSON Lines with a string field "text" on every non-blank line; it
	// is read as JSON Lines when its first non-blank line begins with '{'.
	// Documents (the lines' texts, or the whole text) are trimmed and
	// joined with single spaces, and prompts are consecutive runs of that
	// text, wrapping at its end, that begin at a sentence. Runs are cut at
	// word boundaries and topped up to the exact length with short built-in
	// sentences or other corpus sentences. Styles are ignored: a corpus is
	// taken to hold the kind of text wanted. NewSynth encodes each distinct
	// word once and then the whole corpus about twice to verify the counts,
	// so a corpus of megabytes takes seconds.
	Corpus []byte
	// Tasks adds the text of the task styles (TaskStyles) and of the
	// languages other than English to the built-in text. It makes NewSynth
	// slower and changes Hash, so it is off unless a workload asks for
	// them. It is ignored with a corpus.
	Tasks bool
}

// Synth builds prompts of an exact token length for one tokenizer. It is
// immutable after NewSynth and safe for concurrent use.
type Synth struct {
	hash   string
	pool   pool
	breaks []int // tokens added by a paragraph break after each ending class
	sepMax int   // the largest break cost, at least 0

	topics   []topicTables
	code     codeTables
	shorts   [numStyles]countTable // whole short prompts, start form
	one      countTable            // one-token prompts
	fillBody countTable            // generic fillers, body form
	fillHead countTable            // generic fillers, start form
	corpus   *corpusTables         // nil for the built-in text
	tasks    *taskTables           // nil unless built with SynthConfig.Tasks
}

// topicTables are the pieces of one topic.
type topicTables struct {
	start, body countTable        // statements (and fillers where counts lack)
	heads       [iCode]countTable // per prose style, start form
	closes      [iCode]countTable // per prose style, body form
}

// codeTables are the pieces of code prompts.
type codeTables struct {
	start, body countTable   // notes about the code
	closes      countTable   // questions, body form
	heads       []countTable // per language, start form
	blocks      []countTable // per language, start form
	min         []int        // per language: the shortest prompt with a head and a block
}

// NewSynth pre-tokenizes the built-in text, or cfg.Corpus, with tok once,
// verifies that the counts of its pieces add up when joined, and returns a
// Synth that assembles prompts without encoding. It fails if tok does not
// split text at word boundaries as the BPE tokenizers it was built for do
// (see pieces_count.go), or if the corpus cannot be read.
func NewSynth(tok Tokenizer, cfg SynthConfig) (*Synth, error) {
	b := newBuilder(tok)
	if len(cfg.Corpus) > 0 {
		docs, err := corpusDocs(cfg.Corpus)
		if err != nil {
			return nil, err
		}
		b.addCorpus(docs)
	} else {
		b.addBuiltin()
	}
	b.addSmall()
	if cfg.Tasks && len(cfg.Corpus) == 0 {
		b.addTasks()
	}
	s, err := b.finish()
	if err != nil {
		return nil, fmt.Errorf("building prompt text for tokenizer %s: %w", tok.Name(), err)
	}
	return s, nil
}

// Hash identifies the text prompts are drawn from: "sha256:" and the hex
// digest of every candidate piece's text in pool order, which is the
// built-in templates and vocabulary as expanded, or the corpus as read
// (plus the short built-in sentences that top runs up). It does not depend
// on the tokenizer.
func (s *Synth) Hash() string { return s.hash }

// Prompt appends to dst an English prompt of exactly n tokens in the
// given style and returns the extended slice; it is PromptIn with English.
func (s *Synth) Prompt(dst []byte, r *rand.Rand, style Style, n int) []byte {
	return s.PromptIn(dst, r, style, English, n)
}

// PromptIn appends to dst a prompt of exactly n tokens in the given style
// and language and returns the extended slice. Pieces are chosen with r
// only, so the same r state gives the same bytes. n <= 0 appends nothing.
// In a language other than English, a prose prompt's head, passage and
// closing are in that language, a translation's passage is (its request
// is English), and code and tool-use prompts are English. It panics if
// style is not one of Styles, or lang not one of Languages, or if either
// needs SynthConfig.Tasks and the Synth was built without it (see
// CanWrite). Reusing dst avoids allocation.
func (s *Synth) PromptIn(dst []byte, r *rand.Rand, style Style, lang Language, n int) []byte {
	if n <= 0 {
		return dst
	}
	k := resolve(style, lang)
	if err := s.canWrite(k); err != nil {
		panic("content: " + err.Error())
	}
	st := k.st
	if st < 0 && style == StyleMixed {
		st = r.IntN(numStyles)
	}
	w := writer{p: &s.pool, breaks: s.breaks, dst: dst, left: n}
	switch {
	case s.corpus != nil:
		s.corpusPrompt(&w, r)
	case st == iCode:
		s.codePrompt(&w, r)
	case st < 0 || lang != English:
		s.taskPrompt(&w, r, k)
	default:
		s.prosePrompt(&w, r, st)
	}
	if w.left != 0 {
		panic(fmt.Sprintf("content: prompt of %d tokens came out %d short", n, w.left))
	}
	return w.dst
}
