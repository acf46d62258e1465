package harness

import (
	"fmt"
	"io"

	"surge/content"
	"surge/trace"
	"surge/workload"
)

// expander returns what writes the prompts of a trace made without text
// (surge gen --no-text, or surge import), or nil for a trace with text:
// text of each turn's exact length in the trace's tokenizer (o200k_base
// when it names none), equal content blocks as equal text. It says so on
// log.
func expander(log io.Writer, w *Workload) (func(*trace.Session, int) string, error) {
	if w.Header.Text {
		return nil, nil
	}
	name := w.tokenizer()
	tok, err := w.openTokenizer()
	if err != nil {
		return nil, fmt.Errorf("the trace has no text and its tokenizer %q does not open: %w", name, err)
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "surge: the trace has no text: sending prompts of its exact lengths in %s (equal content blocks as equal text)\n", name)
	return workload.NewExpander(tok, synth, w.Header.Seed).Prompt, nil
}
