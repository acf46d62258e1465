package content

import (
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// BenchmarkBuiltinEncodeProse measures Encode of the built-in encodings on
// English prose, and for comparison tiktoken-go's own Encode, whose
// splitting Builtin replaces; MB/s is bytes of text.
func BenchmarkBuiltinEncodeProse(b *testing.B) {
	text := strings.Repeat(benchProse, 64) // about 100 kB
	for _, tc := range []struct {
		name string
		enc  tokenizer.Encoding
	}{
		{"o200k_base", tokenizer.O200kBase},
		{"cl100k_base", tokenizer.Cl100kBase},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tok, err := Builtin(tc.name)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				tok.Encode(text)
			}
		})
		b.Run(tc.name+"/tiktoken-go", func(b *testing.B) {
			codec, err := tokenizer.Get(tc.enc)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, _, err := codec.Encode(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuiltinLoad measures building a built-in encoding's tables,
// which Builtin does once per encoding and process.
func BenchmarkBuiltinLoad(b *testing.B) {
	for _, tc := range []struct {
		name string
		load func() (*tiktoken, error)
	}{
		{"o200k_base", loadO200k},
		{"cl100k_base", loadCl100k},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := tc.load(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
