package virtual

import (
	"hash/crc64"
	"math/rand/v2"
	"testing"
)

// TestCRCString: crcString is CRC-64/ECMA as hash/crc64 computes it, for
// every length around the 8-byte words it folds at once.
func TestCRCString(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 300)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for n := range len(buf) {
		if got, want := crcString(string(buf[:n])), crc64.Checksum(buf[:n], crcTable); got != want {
			t.Fatalf("crcString of %d bytes = %x, hash/crc64 %x", n, got, want)
		}
	}
}
