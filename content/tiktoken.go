package content

import (
	"fmt"

	"github.com/tiktoken-go/tokenizer"
)

// tiktoken is one of OpenAI's built-in encodings, embedded in the binary.
type tiktoken struct {
	name  string
	codec tokenizer.Codec
}

// Builtin returns the embedded tokenizer of the given encoding name:
// "o200k_base" (GPT-4o and later) or "cl100k_base" (GPT-4, GPT-3.5).
func Builtin(name string) (Tokenizer, error) {
	var enc tokenizer.Encoding
	switch name {
	case "o200k_base":
		enc = tokenizer.O200kBase
	case "cl100k_base":
		enc = tokenizer.Cl100kBase
	default:
		return nil, fmt.Errorf("unknown built-in tokenizer %q (built in: o200k_base, cl100k_base)", name)
	}
	codec, err := tokenizer.Get(enc)
	if err != nil {
		return nil, fmt.Errorf("loading tokenizer %s: %w", name, err)
	}
	return &tiktoken{name: name, codec: codec}, nil
}

func (t *tiktoken) Name() string { return t.name }

func (t *tiktoken) Encode(text string) []int {
	ids, _, err := t.codec.Encode(text)
	if err != nil {
		// The codec fails only on invalid UTF-8 in strict mode, which is
		// not the mode used here.
		panic(fmt.Sprintf("tokenizer %s: %v", t.name, err))
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

func (t *tiktoken) Decode(ids []int) string {
	u := make([]uint, len(ids))
	for i, id := range ids {
		u[i] = uint(id)
	}
	s, err := t.codec.Decode(u)
	if err != nil {
		return ""
	}
	return s
}
