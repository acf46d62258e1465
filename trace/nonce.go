package trace

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
)

// NonceDigits is the length of the nonces NewNonce and NonceOf return.
const NonceDigits = 10

// NewNonce returns a new random nonce for a run's salt: NonceDigits
// decimal digits. Runs of digits are split alike whatever their values
// by the tokenizers surge knows (in threes, or one by one), unlike hex,
// which o200k_base encodes in 6 to 12 tokens, so every run's salt is as
// many tokens long and a prompt too short to hold it is so in every run.
func NewNonce() string {
	var b [8]byte
	rand.Read(b[:])
	return NonceOf(b[:])
}

// NonceOf returns the nonce drawn from the first 8 bytes of seed (a hash),
// as NewNonce draws one from random bytes. It panics when seed is shorter.
func NonceOf(seed []byte) string {
	return fmt.Sprintf("%0*d", NonceDigits, binary.BigEndian.Uint64(seed[:8])%1e10)
}
