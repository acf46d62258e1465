package content

import (
	"fmt"
	"strings"
	"sync"
)

// tiktoken is one of OpenAI's built-in encodings: a split pattern and a
// byte-level BPE vocabulary whose ids are also the merge ranks.
type tiktoken struct {
	name   string
	split  *regexSplit      // cuts text into pieces, each encoded alone
	ranks  map[string]int32 // bytes of a token → its id, which is its rank
	bytes  [256]int32       // id of each single byte
	pieces []string         // id → bytes of the token
	cache  pieceCache       // results of merging pieces
}

var _ Tokenizer = (*tiktoken)(nil)

// builtins loads each built-in encoding on first use and then shares it:
// a tiktoken is safe for concurrent use, and building one takes a while.
var builtins = map[string]func() (*tiktoken, error){
	"o200k_base":  sync.OnceValues(loadO200k),
	"cl100k_base": sync.OnceValues(loadCl100k),
}

// Builtin returns the embedded tokenizer of the given encoding name:
// "o200k_base" (GPT-4o and later) or "cl100k_base" (GPT-4, GPT-3.5).
//
// Encode gives the ids OpenAI's tiktoken gives with encode_ordinary: text
// that spells a special token such as "<|endoftext|>" is encoded as
// ordinary text. The vocabularies are those github.com/tiktoken-go/tokenizer
// embeds, but its splitting is not used: the matcher it generated for the
// split patterns does not backtrack into \s* in \s*[\r\n]+, so it cuts
// "a\n \nb" into "a", "\n", " \n", "b" where tiktoken cuts "a", "\n \n", "b".
// Here the patterns run in regexp2's interpreter, as LoadHF's do.
//
// The first call for an encoding builds its tables (a fraction of a
// second and some 20 MB for o200k_base); later calls share them.
func Builtin(name string) (Tokenizer, error) {
	load, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("unknown built-in tokenizer %q (built in: %s)", name, strings.Join(builtinNames(), ", "))
	}
	t, err := load()
	if err != nil {
		return nil, fmt.Errorf("loading tokenizer %s: %w", name, err)
	}
	return t, nil
}

func (t *tiktoken) Name() string { return t.name }

// Encode returns the token ids of text. Text that is not valid UTF-8 is
// split as if each bad byte were U+FFFD but encoded byte for byte, so
// Decode(Encode(s)) == s for every s.
func (t *tiktoken) Encode(text string) []int {
	// About four bytes of text per token, for a first guess at capacity.
	ids := make([]int, 0, len(text)/4+1)
	var sc mergeScratch
	t.split.apply(text, func(piece string) { ids = t.encodePiece(piece, &sc, ids) })
	return ids
}

// Decode returns the text of ids. Ids that name no ordinary token,
// including those of special tokens, are skipped.
func (t *tiktoken) Decode(ids []int) string {
	var sb strings.Builder
	for _, id := range ids {
		if id >= 0 && id < len(t.pieces) {
			sb.WriteString(t.pieces[id])
		}
	}
	return sb.String()
}
