package harness

import (
	"fmt"

	"surge/content"
	"surge/trace"
)

// SaltNone is the Salt that turns salting off.
const SaltNone = "none"

// salt is a run's salt: the text put before the first message of every
// conversation, its length in the workload's tokenizer, and the cut that
// makes room for it in a message (see driver.Config.Salt).
type salt struct {
	text   string
	tokens int
	cut    func(first string) (string, bool)
}

// runSalt returns the salt of a run with nonce on w. SaltNone, or an
// empty nonce on a trace whose header says salt none, means no salt; an
// empty nonce otherwise a new one (trace.NewNonce); anything else is the
// nonce, to repeat a run's exact prompts. The salt ends in a newline,
// which the tokenizers surge knows never merge with the word after it.
// It takes the place of each conversation's first tokens, which needs
// w's tokenizer: without it the run is refused.
func runSalt(nonce string, w *Workload) (salt, error) {
	switch {
	case nonce == SaltNone, nonce == "" && w.Header.Salt == trace.SaltNone:
		return salt{}, nil
	case nonce == "":
		nonce = trace.NewNonce()
	}
	text := fmt.Sprintf("[surge %s]\n", nonce)
	tok, err := w.openTokenizer()
	if err != nil {
		return salt{}, ConfigError{fmt.Errorf("salting the prompts: the salt takes the place of each conversation's first tokens, counted by the workload's tokenizer, which does not open (%w); run with --salt none", err)}
	}
	cut := func(first string) (string, bool) { return content.MakeRoom(tok, text, first) }
	return salt{text: text, tokens: len(tok.Encode(text)), cut: cut}, nil
}
