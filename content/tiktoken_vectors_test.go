package content

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestBuiltinMatchesReference checks Builtin against OpenAI's tiktoken on
// the vectors testdata/tiktoken/gen_vectors.mjs wrote, and that Decode
// gives every text back.
func TestBuiltinMatchesReference(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, vectors string }{
		{"o200k_base", "o200k_vectors.jsonl"},
		{"cl100k_base", "cl100k_vectors.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tok, err := Builtin(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			// readVectors reads under testdata/hf; these sit beside it.
			vectors := readVectors(t, filepath.Join("..", "tiktoken", tc.vectors))
			bad := 0
			for _, v := range vectors {
				got := tok.Encode(v.Text)
				if !slices.Equal(got, v.IDs) {
					bad++
					if bad <= 8 {
						t.Errorf("Encode(%q)\n got %v\nwant %v", v.Text, got, v.IDs)
					}
				}
				if back := tok.Decode(got); back != v.Text {
					t.Errorf("Decode(Encode(%q)) = %q", v.Text, back)
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d vectors differ from the reference", bad, len(vectors))
			}
		})
	}
}
