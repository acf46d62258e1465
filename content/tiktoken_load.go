package content

import (
	"fmt"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer"
)

// The split patterns of the built-in encodings, as OpenAI's tiktoken
// (tiktoken_ext/openai_public.py) and its npm build give them.
const (
	o200kPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// The number of ordinary (not special) tokens of each built-in encoding;
// their ids run from 0 without gaps.
const (
	o200kTokens  = 199998
	cl100kTokens = 100256
)

// loadO200k builds o200k_base.
func loadO200k() (*tiktoken, error) {
	return loadTiktoken("o200k_base", tokenizer.O200kBase, o200kPattern, o200kTokens)
}

// loadCl100k builds cl100k_base.
func loadCl100k() (*tiktoken, error) {
	return loadTiktoken("cl100k_base", tokenizer.Cl100kBase, cl100kPattern, cl100kTokens)
}

// loadTiktoken builds the encoding called name from tiktoken-go's
// embedded vocabulary of enc, which must hold size ordinary tokens, and the
// split pattern.
//
// tiktoken-go does not export its vocabulary, but its Decode does: the
// bytes of token id are Decode([]uint{id}).
func loadTiktoken(name string, enc tokenizer.Encoding, pattern string, size int) (*tiktoken, error) {
	codec, err := tokenizer.Get(enc)
	if err != nil {
		return nil, err
	}
	// Unlike regexp2.MustCompile, Compile never picks up generated code.
	// The backtracking stack is unbounded so that long runs of white space,
	// which \s+(?!\S) backtracks over, never make matching fail.
	re, err := regexp2.Compile(pattern, regexp2.OptionMaxBacktrackingStackSize(-1))
	if err != nil {
		return nil, fmt.Errorf("compiling the split pattern: %w", err)
	}
	t := &tiktoken{name: name, split: &regexSplit{re: re}, ranks: make(map[string]int32, size), pieces: make([]string, size)}
	for id := range size {
		piece, err := codec.Decode([]uint{uint(id)})
		if err != nil {
			return nil, fmt.Errorf("reading token %d of the vocabulary: %w", id, err)
		}
		if prev, dup := t.ranks[piece]; dup {
			return nil, fmt.Errorf("tokens %d and %d are both %q", prev, id, piece)
		}
		t.ranks[piece] = int32(id)
		t.pieces[id] = piece
	}
	if _, err := codec.Decode([]uint{uint(size)}); err == nil {
		return nil, fmt.Errorf("the vocabulary has more than %d ordinary tokens", size)
	}
	for c := range 256 {
		id, ok := t.ranks[string([]byte{byte(c)})]
		if !ok {
			return nil, fmt.Errorf("the vocabulary lacks the single byte 0x%02X", c)
		}
		t.bytes[c] = id
	}
	return t, nil
}
