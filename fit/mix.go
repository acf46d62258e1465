package fit

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"surge/content"
)

// Mix is a client's query mix: how many of its requests fell in each
// category the trace names (trace.Turn.Category), and the content style
// each category is drawn as in the emitted spec (StyleOf).
type Mix struct {
	Categories []Category // largest first, ties by name
	N          int        // requests with a category
}

// Category is one category of a Mix.
type Category struct {
	Name  string
	Count int
	Style content.Style // StyleOf(Name); StyleMixed when none matches
}

// mixOf returns the mix of the category counts, or nil when there are
// none.
func mixOf(counts map[string]int) *Mix {
	m := &Mix{}
	for name, n := range counts {
		if name == "" || n <= 0 {
			continue
		}
		m.Categories = append(m.Categories, Category{Name: name, Count: n, Style: StyleOf(name)})
		m.N += n
	}
	if m.N == 0 {
		return nil
	}
	slices.SortFunc(m.Categories, func(a, b Category) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	return m
}

// Weights returns the share of the mix's requests drawn as each style,
// largest first: the categories of one style summed, those of no style
// under StyleMixed.
func (m *Mix) Weights() []StyleShare {
	by := map[content.Style]int{}
	for _, c := range m.Categories {
		by[c.Style] += c.Count
	}
	var out []StyleShare
	for st, n := range by {
		out = append(out, StyleShare{Style: st, Share: float64(n) / float64(m.N)})
	}
	slices.SortFunc(out, func(a, b StyleShare) int {
		return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Style, b.Style))
	})
	return out
}

// Styled reports whether some category of the mix names a style, so that
// the spec states the mix rather than leaving prompts mixed.
func (m *Mix) Styled() bool {
	return slices.ContainsFunc(m.Categories, func(c Category) bool { return c.Style != content.StyleMixed })
}

// StyleShare is one style's share of a mix.
type StyleShare struct {
	Style content.Style
	Share float64
}

// styleAliases are the category names, other than the styles' own, that
// StyleOf takes for a content style: the names task taxonomies and
// request loggers commonly give these kinds of request.
var styleAliases = map[string]content.Style{
	"coding": content.StyleCode, "programming": content.StyleCode, "codegen": content.StyleCode,
	"code_generation": content.StyleCode, "code_completion": content.StyleCode, "debugging": content.StyleCode,
	"creative_writing": content.StyleCreative, "writing": content.StyleCreative, "story": content.StyleCreative,
	"storytelling": content.StyleCreative, "poetry": content.StyleCreative, "brainstorming": content.StyleCreative,
	"analytical": content.StyleAnalysis, "comparison": content.StyleAnalysis, "data_analysis": content.StyleAnalysis,
	"extract": content.StyleExtraction, "information_extraction": content.StyleExtraction,
	"classification": content.StyleExtraction, "classify": content.StyleExtraction,
	"mathematics": content.StyleMath, "arithmetic": content.StyleMath,
	"tools": content.StyleTools, "tool": content.StyleTools, "function_calling": content.StyleTools,
	"function_call": content.StyleTools, "agent": content.StyleTools, "agentic": content.StyleTools,
	"long_context": content.StyleLongQA, "document_qa": content.StyleLongQA, "long_document": content.StyleLongQA,
	"retrieval": content.StyleRAG, "retrieval_augmented": content.StyleRAG,
	"conversation": content.StyleChat, "conversational": content.StyleChat, "chitchat": content.StyleChat,
	"dialogue": content.StyleChat, "dialog": content.StyleChat, "roleplay": content.StyleChat,
	"translate": content.StyleTranslation, "machine_translation": content.StyleTranslation,
	"summarization": content.StyleSummarize, "summarisation": content.StyleSummarize,
	"summary": content.StyleSummarize, "summarise": content.StyleSummarize,
	"qa": content.StyleQuestion, "question_answering": content.StyleQuestion, "questions": content.StyleQuestion,
	"open_qa": content.StyleQuestion, "closed_qa": content.StyleQuestion,
	"instructions": content.StyleInstruction, "instruct": content.StyleInstruction, "how_to": content.StyleInstruction,
	"jailbreak": content.StyleAdversarial, "red_team": content.StyleAdversarial, "redteam": content.StyleAdversarial,
}

// StyleOf returns the content style a trace's category stands for: a
// style's own name or one of its aliases (styleAliases), compared without
// case and with spaces, hyphens, dots and slashes as underscores; else
// StyleMixed, the default prompts.
func StyleOf(category string) content.Style {
	name := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '/':
			return '_'
		}
		return r
	}, strings.ToLower(strings.TrimSpace(category)))
	for _, st := range content.Styles() {
		if name == string(st) {
			return st
		}
	}
	if st, ok := styleAliases[name]; ok {
		return st
	}
	return content.StyleMixed
}

// mixComment describes m for the spec's comments: each category's share
// and the style it is drawn as.
func mixComment(m *Mix) string {
	parts := make([]string, 0, len(m.Categories))
	for i, c := range m.Categories {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("%d more", len(m.Categories)-i))
			break
		}
		as := string(c.Style)
		if c.Style == content.StyleMixed && !strings.EqualFold(c.Name, "mixed") {
			as = "mixed (no style of that name)"
		}
		parts = append(parts, fmt.Sprintf("%s %.1f%% as %s", c.Name, 100*float64(c.Count)/float64(m.N), as))
	}
	return fmt.Sprintf("query mix: %d requests in %d categories: %s", m.N, len(m.Categories), strings.Join(parts, ", "))
}

// writeMix writes a client's query mix, when its trace names categories:
// the comment, and content: with each style's share when some category
// names one (else prompts stay mixed, as without a mix).
func writeMix(b *bytes.Buffer, m *Mix) {
	if m == nil {
		return
	}
	fmt.Fprintf(b, "    # %s\n", mixComment(m))
	if !m.Styled() {
		b.WriteString("    # no category names a content style, so prompts stay mixed\n")
		return
	}
	var parts []string
	for _, w := range m.Weights() {
		parts = append(parts, fmt.Sprintf("%s: %s", w.Style, strconv.FormatFloat(w.Share, 'g', 4, 64)))
	}
	fmt.Fprintf(b, "    content: {%s}\n", strings.Join(parts, ", "))
}

// mixDistance is the total variation distance between the style shares
// of m and those of the style counts got (requests without a style
// counting as mixed): 0 when they agree, 1 when they share nothing.
func mixDistance(m *Mix, got map[string]int) float64 {
	want := map[content.Style]float64{}
	for _, w := range m.Weights() {
		want[w.Style] = w.Share
	}
	n := 0
	for _, k := range got {
		n += k
	}
	have := map[content.Style]float64{}
	for st, k := range got {
		have[content.Style(st)] = float64(k) / float64(max(n, 1))
	}
	if n == 0 {
		have[content.StyleMixed] = 1
	}
	d := 0.0
	for st, w := range want {
		d += math.Abs(w - have[st])
	}
	for st, h := range have {
		if _, ok := want[st]; !ok {
			d += h
		}
	}
	return d / 2
}
