package virtual

import "hash/crc64"

// crcTable is read-only after init.
var crcTable = crc64.MakeTable(crc64.ECMA)

// crcSlices are the slicing-by-8 tables of crcTable, read-only after init:
// crcSlices[j][b] is the CRC register after byte b then j zero bytes.
var crcSlices = slicing8(crcTable)

// slicing8 returns the slicing-by-8 tables of t.
func slicing8(t *crc64.Table) *[8]crc64.Table {
	var s [8]crc64.Table
	s[0] = *t
	for i := range 256 {
		c := t[i]
		for j := 1; j < 8; j++ {
			c = t[c&0xff] ^ c>>8
			s[j][i] = c
		}
	}
	return &s
}

// crcString is crc64.Checksum([]byte(s), crcTable) without copying s, and
// without the table comparison crc64 makes on every call, which dominates
// for the 64-odd bytes of text a KV block holds. Eight bytes at a time,
// the register r ⊕ (the next 8 bytes, little-endian) is folded through
// one table per byte:
//
//	r' = S₇[r₀] ⊕ S₆[r₁] ⊕ … ⊕ S₀[r₇],   r_i the i-th byte of that word.
func crcString(s string) uint64 {
	r := ^uint64(0)
	for ; len(s) >= 8; s = s[8:] {
		r ^= le64(s)
		r = crcSlices[7][r&0xff] ^ crcSlices[6][r>>8&0xff] ^ crcSlices[5][r>>16&0xff] ^ crcSlices[4][r>>24&0xff] ^
			crcSlices[3][r>>32&0xff] ^ crcSlices[2][r>>40&0xff] ^ crcSlices[1][r>>48&0xff] ^ crcSlices[0][r>>56]
	}
	for i := 0; i < len(s); i++ {
		r = crcTable[byte(r)^s[i]] ^ r>>8
	}
	return ^r
}

// le64 reads the first 8 bytes of s as a little-endian word (the compiler
// merges the loads).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
