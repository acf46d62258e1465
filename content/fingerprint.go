package content

import (
	"crypto/sha256"
	"encoding/hex"
)

// hasher is the optional ability of a Tokenizer to name its exact
// vocabulary and rules, e.g. by a digest of the file it was loaded from.
type hasher interface {
	Hash() string
}

// Fingerprint identifies the exact tokenizer t for trace headers: its Hash
// when it has one (a tokenizer.json loaded by LoadHF gives "sha256:" and
// the digest of the file), and otherwise "sha256:" and the digest of its
// Name, which suffices for built-ins whose tables are compiled in.
func Fingerprint(t Tokenizer) string {
	if h, ok := t.(hasher); ok {
		return h.Hash()
	}
	sum := sha256.Sum256([]byte(t.Name()))
	return "sha256:" + hex.EncodeToString(sum[:])
}
