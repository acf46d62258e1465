package content

import (
	"strings"
	"testing"
)

// benchProse is English prose for encoding benchmarks.
const benchProse = `The history of the printing press is, in many ways, the history of the modern world. Before Johannes Gutenberg's workshop in Mainz began producing books with movable metal type around 1450, most texts in Europe were copied by hand, a slow and expensive process that kept literacy the privilege of a few. Within fifty years, presses had spread to more than two hundred cities, and millions of volumes were in circulation.

Historians still argue about how much credit the press deserves. Some point out that paper, ink and the screw press were all older inventions; others note that printing in East Asia had flourished for centuries. What changed in Europe, they say, was the combination: cheap paper, oil-based ink, a mould that cast identical letters quickly, and a market of merchants, scholars and churches hungry for text. "It wasn't one idea," one scholar wrote, "it was a system, and systems are what change societies."

The consequences were enormous. Standardised texts made it possible for readers in different countries to refer to the same page and line. Errors, once multiplied by every copyist, could now be corrected in the next edition. Pamphlets carried arguments across borders faster than any censor could follow, and the Reformation, the scientific revolution and the rise of newspapers all depended on them. By 1600, a well-read person could own more books than a medieval monastery's library.
`

// BenchmarkHFEncode measures Encode on English prose; MB/s is bytes of text.
func BenchmarkHFEncode(b *testing.B) {
	for _, tc := range []struct {
		family string
		load   func(testing.TB) Tokenizer
	}{
		{"llama3", llama3Tokenizer},
		{"qwen3", qwen3Tokenizer},
	} {
		b.Run(tc.family, func(b *testing.B) {
			tok := tc.load(b)
			text := strings.Repeat(benchProse, 64) // about 100 kB
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				tok.Encode(text)
			}
		})
	}
}

// BenchmarkLoadHF measures reading Llama 3's tokenizer.json.
func BenchmarkLoadHF(b *testing.B) {
	path := llama3Path(b)
	for b.Loop() {
		if _, err := LoadHF(path); err != nil {
			b.Fatal(err)
		}
	}
}
