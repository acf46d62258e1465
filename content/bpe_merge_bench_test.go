package content

import "testing"

// BenchmarkBPEMerge measures the merge loop alone, without the cache of
// merged pieces: each of benchProse's pieces of more than one byte is
// merged afresh; MB/s is bytes of those pieces.
func BenchmarkBPEMerge(b *testing.B) {
	for _, tc := range []struct {
		name   string
		pieces func(testing.TB) []string
		merge  func(testing.TB) func(string, *mergeScratch, []int) []int
	}{
		{"o200k_base", builtinPieces, builtinMerge},
		{"llama3", hfPieces, hfMerge},
	} {
		b.Run(tc.name, func(b *testing.B) {
			pieces, merge := tc.pieces(b), tc.merge(b)
			n := 0
			for _, p := range pieces {
				n += len(p)
			}
			b.SetBytes(int64(n))
			var sc mergeScratch
			ids := make([]int, 0, n)
			for b.Loop() {
				ids = ids[:0]
				for _, p := range pieces {
					ids = merge(p, &sc, ids)
				}
			}
		})
	}
}

// builtinPieces returns o200k_base's split of benchProse, without the
// one-byte pieces.
func builtinPieces(tb testing.TB) []string {
	t := builtinO200k(tb)
	var pieces []string
	t.split.apply(benchProse, func(p string) {
		if len(p) > 1 {
			pieces = append(pieces, p)
		}
	})
	return pieces
}

// builtinMerge returns o200k_base's merge of one piece.
func builtinMerge(tb testing.TB) func(string, *mergeScratch, []int) []int {
	t := builtinO200k(tb)
	return func(p string, sc *mergeScratch, ids []int) []int {
		return bpeMerge(&joiner{byteIDs: &t.bytes, ranks: t.ranks}, p, sc, ids)
	}
}

// hfPieces returns Llama 3's pre-tokenization of benchProse, without the
// one-byte pieces.
func hfPieces(tb testing.TB) []string {
	t := llama3Tokenizer(tb).(*hfTokenizer)
	var pieces []string
	preTokenize(t.steps, benchProse, func(p string) {
		if len(p) > 1 {
			pieces = append(pieces, p)
		}
	})
	return pieces
}

// hfMerge returns Llama 3's merge of one piece.
func hfMerge(tb testing.TB) func(string, *mergeScratch, []int) []int {
	m := llama3Tokenizer(tb).(*hfTokenizer).model
	return func(p string, sc *mergeScratch, ids []int) []int {
		return bpeMerge(&joiner{byteIDs: &m.byteIDs, merges: m.merges}, p, sc, ids)
	}
}

// builtinO200k returns the built-in o200k_base encoding.
func builtinO200k(tb testing.TB) *tiktoken {
	tb.Helper()
	tok, err := Builtin("o200k_base")
	if err != nil {
		tb.Fatal(err)
	}
	return tok.(*tiktoken)
}
