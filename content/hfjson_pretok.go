package content

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dlclark/regexp2/v2"
)

// gpt2Pattern is the split pattern of a ByteLevel pre-tokenizer whose
// use_regex is true.
const gpt2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

// preStep is one stage of pre-tokenization: it cuts s into pieces and
// calls emit with each, in order. The pieces concatenate to s, except
// that prefixSpace may add one leading space.
type preStep interface {
	apply(s string, emit func(string))
}

// preTokenize runs steps in order, each on every piece of the one before,
// and calls emit with the final pieces.
func preTokenize(steps []preStep, s string, emit func(string)) {
	if len(steps) == 0 {
		emit(s)
		return
	}
	steps[0].apply(s, func(piece string) { preTokenize(steps[1:], piece, emit) })
}

// regexSplit is a Split pre-tokenizer with behavior Isolated: every match
// is a piece and so is every stretch of text between matches.
//
// The pattern runs in regexp2's interpreter on purpose. regexp2.MustCompile
// would pick up the engine code tiktoken-go generated for the same pattern
// (Llama 3's is cl100k_base's), and that code splits "a\n \nb" as "a",
// "\n", " \n", "b" where the pattern, the reference and the interpreter give
// "a", "\n \n", "b": it does not backtrack into \s* in \s*[\r\n]+.
type regexSplit struct {
	re *regexp2.Regexp
}

// newRegexSplit compiles pattern, where names the field for errors. The
// backtracking stack is unbounded so that long runs of white space, which
// \s+(?!\S) backtracks over, never make matching fail.
func newRegexSplit(where, pattern string) (*regexSplit, error) {
	re, err := regexp2.Compile(pattern, regexp2.OptionMaxBacktrackingStackSize(-1))
	if err != nil {
		return nil, fmt.Errorf("tokenizer.json: %s pattern %q: %w", where, pattern, err)
	}
	return &regexSplit{re: re}, nil
}

func (r *regexSplit) apply(s string, emit func(string)) {
	idx, err := r.re.FindAllStringIndex(s, -1)
	if err != nil {
		// Unreachable: the stack is unbounded and there is no timeout.
		panic(fmt.Sprintf("content: splitting text with %q: %v", r.re.String(), err))
	}
	prev := 0
	for _, m := range idx {
		if m[0] > prev {
			emit(s[prev:m[0]])
		}
		if m[1] > m[0] {
			emit(s[m[0]:m[1]])
		}
		prev = m[1]
	}
	if prev < len(s) {
		emit(s[prev:])
	}
}

// prefixSpace is ByteLevel's add_prefix_space: a piece that does not start
// with a space gets one.
type prefixSpace struct{}

func (prefixSpace) apply(s string, emit func(string)) {
	if strings.HasPrefix(s, " ") {
		emit(s)
		return
	}
	emit(" " + s)
}

// buildPreTokenizer turns the pre_tokenizer of a byte-level BPE into
// steps. It accepts a ByteLevel pre-tokenizer alone, or a Sequence of Split
// pre-tokenizers ending in ByteLevel.
func buildPreTokenizer(c *hfComponent) ([]preStep, error) {
	if c == nil {
		return nil, errors.New("tokenizer.json: pre_tokenizer is null; byte-level BPE needs a ByteLevel pre-tokenizer")
	}
	parts, where := []*hfComponent{c}, func(int) string { return "pre_tokenizer" }
	if c.Type == "Sequence" {
		parts = c.PreTokenizers
		where = func(i int) string { return fmt.Sprintf("pre_tokenizer.pretokenizers[%d]", i) }
	}
	var steps []preStep
	for i, p := range parts {
		if p == nil {
			return nil, fmt.Errorf("tokenizer.json: %s is null", where(i))
		}
		switch p.Type {
		case "Split":
			step, err := splitStep(where(i), p)
			if err != nil {
				return nil, err
			}
			steps = append(steps, step)
		case "ByteLevel":
			if i != len(parts)-1 {
				return nil, fmt.Errorf("tokenizer.json: %s: ByteLevel must be the last pre-tokenizer", where(i))
			}
			byteSteps, err := byteLevelSteps(where(i), p)
			if err != nil {
				return nil, err
			}
			return append(steps, byteSteps...), nil
		default:
			return nil, fmt.Errorf("tokenizer.json: %s type %s is not supported (byte-level BPE only)", where(i), p.Type)
		}
	}
	return nil, errors.New("tokenizer.json: pre_tokenizer has no ByteLevel step (byte-level BPE only)")
}

// splitStep builds a Split pre-tokenizer; only behavior Isolated without
// invert is supported, which is what byte-level BPE models use.
func splitStep(where string, p *hfComponent) (preStep, error) {
	if p.Behavior != "Isolated" {
		return nil, fmt.Errorf("tokenizer.json: %s behavior %q is not supported (Isolated only)", where, p.Behavior)
	}
	if p.Invert {
		return nil, fmt.Errorf("tokenizer.json: %s invert true is not supported", where)
	}
	switch {
	case p.Pattern == nil:
		return nil, fmt.Errorf("tokenizer.json: %s has no pattern", where)
	case p.Pattern.Regex != nil:
		return newRegexSplit(where, *p.Pattern.Regex)
	case p.Pattern.String != nil:
		return newRegexSplit(where, regexp2.Escape(*p.Pattern.String))
	}
	return nil, fmt.Errorf("tokenizer.json: %s pattern has neither Regex nor String", where)
}

// byteLevelSteps builds the splitting a ByteLevel pre-tokenizer does before
// it maps bytes to its alphabet (which the BPE step does on raw bytes).
func byteLevelSteps(where string, p *hfComponent) ([]preStep, error) {
	var steps []preStep
	if p.AddPrefixSpace {
		steps = append(steps, prefixSpace{})
	}
	if p.UseRegex == nil || *p.UseRegex {
		split, err := newRegexSplit(where, gpt2Pattern)
		if err != nil {
			return nil, err
		}
		steps = append(steps, split)
	}
	return steps, nil
}
