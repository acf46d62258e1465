package cli

import (
	"cmp"
	"fmt"
	"io"

	"surge/content"
	"surge/trace"
	"surge/workload"
)

// expander returns what writes the prompts of a trace made without text
// (surge gen --no-text, or surge import), or nil for a trace with text:
// text of each turn's exact length in the trace's tokenizer (o200k_base
// when it names none), equal content blocks as equal text.
func expander(w io.Writer, h trace.Header) (func(*trace.Session, int) string, error) {
	if h.Text {
		return nil, nil
	}
	name := traceTokenizer(h)
	tok, err := content.Open(name)
	if err != nil {
		return nil, fmt.Errorf("the trace has no text and its tokenizer %q does not open: %w", name, err)
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "surge: the trace has no text: sending prompts of its exact lengths in %s (equal content blocks as equal text)\n", name)
	return workload.NewExpander(tok, synth, h.Seed).Prompt, nil
}

// traceTokenizer names the tokenizer of h's token counts: the header's,
// or o200k_base for a trace that names none (an imported one).
func traceTokenizer(h trace.Header) string { return cmp.Or(h.Tokenizer, "o200k_base") }
