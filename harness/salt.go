package harness

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"surge/trace"
)

// SaltNone is the Salt that turns salting off.
const SaltNone = "none"

// runSalt returns the text a run puts before the first message of every
// conversation and its length in the workload's tokenizer. It ends in a
// newline, which the tokenizers surge knows never merge with the word
// after it, so the salted prompt is exactly that many tokens longer.
// SaltNone, or an empty salt on a trace whose header says salt none,
// means no salt; an empty salt otherwise a random nonce of this run;
// anything else is the nonce, to repeat a run's exact prompts.
func runSalt(nonce string, w *Workload) (string, int) {
	switch {
	case nonce == SaltNone, nonce == "" && w.Header.Salt == trace.SaltNone:
		return "", 0
	case nonce == "":
		var b [4]byte
		rand.Read(b[:])
		nonce = hex.EncodeToString(b[:])
	}
	salt := fmt.Sprintf("[surge %s]\n", nonce)
	tok, err := w.openTokenizer()
	if err != nil {
		// A run against a server whose tokenizer surge cannot open still
		// runs; the token audit then misses the salt's few tokens.
		return salt, 0
	}
	return salt, len(tok.Encode(salt))
}
