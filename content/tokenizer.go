// Package content holds tokenizers and the synthesis of prompt text of an
// exact token length.
package content

// Tokenizer turns text into token IDs and back.
type Tokenizer interface {
	// Name identifies the tokenizer, e.g. "o200k_base" or a tokenizer.json
	// path's model name; it is recorded in traces.
	Name() string
	// Encode returns the token IDs of text, without special tokens.
	Encode(text string) []int
	// Decode returns the text of ids.
	Decode(ids []int) string
}
