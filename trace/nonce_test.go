package trace

import (
	"regexp"
	"testing"
)

func TestNonce(t *testing.T) {
	t.Parallel()
	digits := regexp.MustCompile(`^[0-9]{10}$`)
	seen := map[string]bool{}
	for range 100 {
		n := NewNonce()
		if !digits.MatchString(n) {
			t.Fatalf("NewNonce() = %q, want %d decimal digits", n, NonceDigits)
		}
		seen[n] = true
	}
	if len(seen) < 99 {
		t.Errorf("100 nonces drawn, %d distinct", len(seen))
	}
	seed := []byte{0, 0, 0, 0, 0, 0, 0, 7, 0xff}
	if got := NonceOf(seed); got != "0000000007" {
		t.Errorf("NonceOf(…7) = %q, want 0000000007: zero-padded to %d digits", got, NonceDigits)
	}
	if a, b := NonceOf(seed), NonceOf(seed[:8]); a != b {
		t.Errorf("NonceOf gave %q, then %q for the same first 8 bytes", a, b)
	}
}
