package content

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// hfTokenizer is a byte-level BPE tokenizer read from a Hugging Face
// tokenizer.json. Its methods are safe for concurrent use: all is fixed at
// loading but the model's piece cache, which has its own mutex.
type hfTokenizer struct {
	name, hash string
	normalize  normalizer // nil: none
	added      *addedTokens
	steps      []preStep
	model      *bpeModel
	pieces     []string // id → text it decodes to; "" for unused ids
}

var _ Tokenizer = (*hfTokenizer)(nil)

// LoadHF reads a Hugging Face tokenizer.json of a byte-level BPE model, the
// kind Llama 3, Qwen 2 and Qwen 3 use, and returns it as a Tokenizer.
//
// Supported: model.type BPE with merges as "a b" strings or [a, b] pairs
// and ignore_merges; a pre_tokenizer that is ByteLevel alone (use_regex
// true: the GPT-2 split pattern) or a Sequence of Split (Isolated, not
// inverted) steps ending in ByteLevel; normalizer null or NFC; decoder
// null or ByteLevel; added_tokens without single_word. Anything else is an
// error naming the field.
//
// Encode matches added tokens in text as the Hugging Face library does with
// add_special_tokens=False: the text "<|begin_of_text|>" becomes its single
// special id, and no BOS or EOS is added. Text that is not valid UTF-8 is
// split as if each bad byte were U+FFFD but encoded byte for byte, so
// Decode(Encode(s)) == s for every s unless the pre-tokenizer adds a prefix
// space or the normalizer changes s (NFC: only text not already in NFC).
//
// Name is "hf:" followed by the name of the directory holding the file when
// the file is called tokenizer.json (the layout of a model repository), or
// else the file name without ".json". Hash is "sha256:" and the hex digest
// of the file's bytes. LoadHF reads the file at path, for programs and
// tests; a library takes ReadHF or OpenFS.
func LoadHF(path string) (Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loading tokenizer: %w", err)
	}
	defer f.Close()
	return ReadHF(f, filepath.ToSlash(path))
}

// ReadHF reads a tokenizer.json from r, as LoadHF does from a file;
// name, the slash-separated path or name of the file, gives the Name.
func ReadHF(r io.Reader, name string) (Tokenizer, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("loading tokenizer: %w", err)
	}
	t, err := newHFTokenizer(hfName(name), data)
	if err != nil {
		return nil, fmt.Errorf("loading tokenizer %s: %w", filepath.FromSlash(name), err)
	}
	return t, nil
}

// hfName derives the Name of the tokenizer in the file at the
// slash-separated path name.
func hfName(name string) string {
	base := path.Base(name)
	if base == "tokenizer.json" {
		if dir := path.Base(path.Dir(name)); dir != "." && dir != "/" {
			return "hf:" + dir
		}
	}
	return "hf:" + strings.TrimSuffix(base, ".json")
}

// newHFTokenizer parses the bytes of a tokenizer.json.
func newHFTokenizer(name string, data []byte) (*hfTokenizer, error) {
	f, err := parseHFFile(data)
	if err != nil {
		return nil, err
	}
	if err := checkModel(f.Model); err != nil {
		return nil, err
	}
	if err := checkDecoder(f.Decoder); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	t := &hfTokenizer{name: name, hash: "sha256:" + hex.EncodeToString(sum[:])}
	if t.normalize, err = buildNormalizer(f.Normalizer); err != nil {
		return nil, err
	}
	if t.steps, err = buildPreTokenizer(f.PreTokenizer); err != nil {
		return nil, err
	}
	if t.added, err = newAddedTokens(f.AddedTokens); err != nil {
		return nil, err
	}
	if t.model, t.pieces, err = newBPEModel(f.Model, newByteAlphabet()); err != nil {
		return nil, err
	}
	for _, a := range f.AddedTokens {
		if a.ID >= len(t.pieces) {
			t.pieces = append(t.pieces, make([]string, a.ID+1-len(t.pieces))...)
		}
		t.pieces[a.ID] = a.Content
	}
	return t, nil
}

// checkModel rejects models other than plain byte-level BPE.
func checkModel(m *hfModel) error {
	switch {
	case m == nil:
		return fmt.Errorf("tokenizer.json: model is missing")
	case m.Type != "BPE":
		return fmt.Errorf("tokenizer.json: model.type %q is not supported (BPE only)", m.Type)
	case m.Vocab == nil:
		return fmt.Errorf("tokenizer.json: model.vocab is missing")
	case m.Merges == nil:
		return fmt.Errorf("tokenizer.json: model.merges is missing")
	case m.Dropout != nil && *m.Dropout != 0:
		return fmt.Errorf("tokenizer.json: model.dropout %v is not supported", *m.Dropout)
	case m.ByteFallback:
		return fmt.Errorf("tokenizer.json: model.byte_fallback true is not supported (byte-level BPE only)")
	case m.ContinuingSubwordPrefix != "" || m.EndOfWordSuffix != "":
		return fmt.Errorf("tokenizer.json: model.continuing_subword_prefix and end_of_word_suffix are not supported")
	}
	return nil
}

// checkDecoder accepts the decoders whose output Decode reproduces.
func checkDecoder(c *hfComponent) error {
	if c == nil || c.Type == "ByteLevel" {
		return nil
	}
	return fmt.Errorf("tokenizer.json: decoder type %s is not supported (null or ByteLevel only)", c.Type)
}

// Name returns "hf:" and the model directory or file name; see LoadHF.
func (t *hfTokenizer) Name() string { return t.name }

// Hash returns "sha256:" and the hex SHA-256 of the tokenizer.json bytes.
func (t *hfTokenizer) Hash() string { return t.hash }

// Encode returns the token ids of text; see LoadHF for added tokens.
func (t *hfTokenizer) Encode(text string) []int {
	// About four bytes of text per token, for a first guess at capacity.
	ids := make([]int, 0, len(text)/4+1)
	var sc mergeScratch
	bpe := func(piece string) { ids = t.model.encodePiece(piece, &sc, ids) }
	plain := func(s string) {
		if t.normalize != nil {
			s = t.normalize(s)
		}
		preTokenize(t.steps, s, bpe)
	}
	t.added.split(text, plain, func(id int) { ids = append(ids, id) })
	return ids
}

// Decode returns the text of ids. Ids that name no token are skipped.
func (t *hfTokenizer) Decode(ids []int) string {
	var sb strings.Builder
	for _, id := range ids {
		if id >= 0 && id < len(t.pieces) {
			sb.WriteString(t.pieces[id])
		}
	}
	return sb.String()
}
