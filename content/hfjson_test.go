package content

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tinyPath is a hand-made byte-level BPE tokenizer.json: the 256 byte
// tokens (ids 0-255 in byte order), twelve merges, "abc" reachable only
// whole, and the added tokens "<|eot|>", "<|eot|>x" and "<pad>" (lstrip
// and rstrip).
var tinyPath = filepath.Join("testdata", "hf", "tiny.json")

// tinyJSON returns tiny.json as generic JSON, edited by edit, re-encoded.
func tinyJSON(t *testing.T, edit func(m map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	if edit == nil {
		return data
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tinyTokenizer loads tiny.json after edit.
func tinyTokenizer(t *testing.T, edit func(m map[string]any)) *hfTokenizer {
	t.Helper()
	tok, err := newHFTokenizer("hf:tiny", tinyJSON(t, edit))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// jsonField returns the object at a dotted path of m.
func jsonField(m map[string]any, path string) map[string]any {
	for _, k := range strings.Split(path, ".") {
		m = m[k].(map[string]any)
	}
	return m
}

func TestLoadHFErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, reason string
		edit         func(m map[string]any)
		want         string // substring of the error
	}{
		{"model type", "only BPE models are byte-level BPE",
			func(m map[string]any) { jsonField(m, "model")["type"] = "WordPiece" }, `model.type "WordPiece" is not supported`},
		{"no merges", "BPE without merges cannot merge",
			func(m map[string]any) { delete(jsonField(m, "model"), "merges") }, "model.merges is missing"},
		{"no vocab", "nothing to map tokens to",
			func(m map[string]any) { delete(jsonField(m, "model"), "vocab") }, "model.vocab is missing"},
		{"no model", "a file without a model is not a tokenizer",
			func(m map[string]any) { delete(m, "model") }, "model is missing"},
		{"metaspace", "SentencePiece-style models are not byte-level",
			func(m map[string]any) { m["pre_tokenizer"] = map[string]any{"type": "Metaspace"} },
			"pre_tokenizer type Metaspace is not supported (byte-level BPE only)"},
		{"null pre_tokenizer", "without ByteLevel the vocabulary cannot be reached",
			func(m map[string]any) { m["pre_tokenizer"] = nil }, "pre_tokenizer is null"},
		{"split removed", "only Isolated keeps every character",
			func(m map[string]any) {
				jsonField(m, "pre_tokenizer")["pretokenizers"].([]any)[0].(map[string]any)["behavior"] = "Removed"
			}, `pre_tokenizer.pretokenizers[0] behavior "Removed" is not supported`},
		{"bad regex", "the pattern must compile",
			func(m map[string]any) {
				jsonField(m, "pre_tokenizer")["pretokenizers"].([]any)[0].(map[string]any)["pattern"] = map[string]any{"Regex": "(["}
			}, "pre_tokenizer.pretokenizers[0] pattern"},
		{"bytelevel first", "a Split after ByteLevel would split the byte alphabet",
			func(m map[string]any) {
				p := jsonField(m, "pre_tokenizer")["pretokenizers"].([]any)
				p[0], p[1] = p[1], p[0]
			}, "ByteLevel must be the last pre-tokenizer"},
		{"sequence without bytelevel", "byte-level BPE needs the byte mapping",
			func(m map[string]any) {
				p := jsonField(m, "pre_tokenizer")
				p["pretokenizers"] = p["pretokenizers"].([]any)[:1]
			}, "pre_tokenizer has no ByteLevel step"},
		{"normalizer", "only NFC (or none) is supported",
			func(m map[string]any) { m["normalizer"] = map[string]any{"type": "Lowercase"} }, "normalizer type Lowercase is not supported"},
		{"decoder", "Decode reproduces only ByteLevel decoding",
			func(m map[string]any) { m["decoder"] = map[string]any{"type": "WordPiece"} }, "decoder type WordPiece is not supported"},
		{"byte fallback", "SentencePiece-style byte fallback is not byte-level BPE",
			func(m map[string]any) { jsonField(m, "model")["byte_fallback"] = true }, "model.byte_fallback true is not supported"},
		{"dropout", "dropout makes encoding random",
			func(m map[string]any) { jsonField(m, "model")["dropout"] = 0.1 }, "model.dropout 0.1 is not supported"},
		{"merge out of vocab", "a merge must produce a vocabulary token",
			func(m map[string]any) { jsonField(m, "model")["merges"] = []any{"q u"} }, `model.merges[0] "q" "u": token "qu" is not in model.vocab`},
		{"merge malformed", `a merge string is "a b"`,
			func(m map[string]any) { jsonField(m, "model")["merges"] = []any{"h e l"} }, `merges[0] "h e l": want two tokens`},
		{"merge pair malformed", "a merge pair has two tokens",
			func(m map[string]any) { jsonField(m, "model")["merges"] = []any{[]any{"h"}} }, "merges[0]: a pair has 2 tokens, got 1"},
		{"missing byte", "every byte must have a token",
			func(m map[string]any) { delete(jsonField(m, "model.vocab"), "Ġ") }, "lacks the byte-level token \"Ġ\" for byte 0x20"},
		{"negative id", "ids index the decoding table",
			func(m map[string]any) { jsonField(m, "model.vocab")["abc"] = -1 }, `model.vocab["abc"]: id -1 out of range`},
		{"single word", "single_word matching is not implemented",
			func(m map[string]any) { m["added_tokens"].([]any)[0].(map[string]any)["single_word"] = true }, "single_word true is not supported"},
		{"empty added token", "an empty token would match everywhere",
			func(m map[string]any) { m["added_tokens"].([]any)[0].(map[string]any)["content"] = "" }, "has empty content"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := newHFTokenizer("hf:tiny", tinyJSON(t, tc.edit))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one containing %q", tc.reason, err, tc.want)
			}
		})
	}
}

func TestLoadHFFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"model": {"type": "BPE", "vocab": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, reason, want string
	}{
		{bad, "truncated JSON is not a tokenizer", "tokenizer.json: unexpected end of JSON input"},
		{filepath.Join(dir, "absent.json"), "a missing file is reported with its path", "absent.json: no such file"},
	}
	for _, tc := range tests {
		_, err := LoadHF(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: LoadHF error %v, want one containing %q", tc.reason, err, tc.want)
		}
	}
}

// tokenTexts decodes each id on its own, for readable comparisons.
func tokenTexts(tok Tokenizer, ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = tok.Decode([]int{id})
	}
	return out
}

func TestHFTinyEncode(t *testing.T) {
	t.Parallel()
	noIgnore := func(m map[string]any) { jsonField(m, "model")["ignore_merges"] = false }
	pairs := func(m map[string]any) {
		model := jsonField(m, "model")
		var out []any
		for _, s := range model["merges"].([]any) {
			a, b, _ := strings.Cut(s.(string), " ")
			out = append(out, []any{a, b})
		}
		model["merges"] = out
	}
	gpt2 := func(m map[string]any) {
		m["pre_tokenizer"] = map[string]any{"type": "ByteLevel", "add_prefix_space": true, "use_regex": true}
	}
	literal := func(m map[string]any) {
		jsonField(m, "pre_tokenizer")["pretokenizers"].([]any)[0].(map[string]any)["pattern"] = map[string]any{"String": "l"}
	}
	tests := []struct {
		text, reason string
		edit         func(m map[string]any)
		want         []string
	}{
		{"hello world", "merges apply in rank order within each piece", nil, []string{"hello", " world"}},
		{"hello world", "the same with merges spelled as pairs", pairs, []string{"hello", " world"}},
		{"xyz", "merges are pairs: y+z merges first and (x, yz) is no rule, though xyz is in the vocabulary",
			noIgnore, []string{"x", "yz"}},
		{"abc", "ignore_merges emits a piece found in the vocabulary whole", nil, []string{"abc"}},
		{"abc", "without ignore_merges, abc has no merges to reach it", noIgnore, []string{"a", "b", "c"}},
		{"hi<|eot|>there", "added tokens are matched in text", nil, []string{"h", "i", "<|eot|>", "t", "he", "r", "e"}},
		{"<|eot|>x<|eot|>", "the longest added token wins", nil, []string{"<|eot|>x", "<|eot|>"}},
		{"a  <pad>  b", "lstrip and rstrip swallow the white space around the token", nil, []string{"a", "<pad>", "b"}},
		{"<|eot", "a partial added token is plain text", nil, []string{"<", "|", "e", "o", "t"}},
		{"hello world", "ByteLevel with add_prefix_space and the GPT-2 pattern: pieces \" hello\", \" world\"", gpt2, []string{" ", "hello", " world"}},
		{"hello", "a Split on a String pattern isolates each occurrence of the literal", literal, []string{"he", "l", "l", "o"}},
		{"\xff\xfeh", "invalid UTF-8 is encoded byte for byte", nil, []string{"\xff", "\xfe", "h"}},
		{"", "nothing in, nothing out", nil, []string{}},
	}
	for _, tc := range tests {
		tok := tinyTokenizer(t, tc.edit)
		got := tokenTexts(tok, tok.Encode(tc.text))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Encode(%q) = %q, want %q", tc.reason, tc.text, got, tc.want)
		}
	}
}

func TestHFTinyIDs(t *testing.T) {
	t.Parallel()
	tok := tinyTokenizer(t, nil)
	// ids: bytes 0-255, then the merge results in order (he 256, ll 257,
	// hell 258, hello 259, Ġw 260, or 261, Ġwor 262, ld 263, Ġworld 264),
	// ..., abc 268, <|eot|> 269.
	if got, want := tok.Encode("hello world<|eot|>!"), []int{259, 264, 269, '!'}; !slices.Equal(got, want) {
		t.Errorf("Encode = %v, want %v", got, want)
	}
	if got, want := tok.Decode([]int{259, -1, 264, 1 << 20, 269}), "hello world<|eot|>"; got != want {
		t.Errorf("Decode with unknown ids = %q, want %q (unknown ids skipped)", got, want)
	}
}

func TestHFPreTokenize(t *testing.T) {
	t.Parallel()
	const llama3 = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	split, err := newRegexSplit("test", llama3)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text, reason string
		want         []string
	}{
		{"a\n \nb", `\s*[\r\n]+ backtracks into \s* (tiktoken-go's generated engine does not)`, []string{"a", "\n \n", "b"}},
		{"x\u0085 \u0085y", `U+0085 is \s, as in Oniguruma (not in JavaScript)`, []string{"x", "\u0085 ", "\u0085y"}},
		{"it's I'M", "contractions split off, in either case", []string{"it", "'s", " I", "'M"}},
		{"1234567", "digits go in threes", []string{"123", "456", "7"}},
		{"  hello  ", "a space run leaves its last space to the word", []string{" ", " hello", "  "}},
		{"a\xffb", "an invalid byte is one non-letter character", []string{"a", "\xffb"}},
	}
	for _, tc := range tests {
		var got []string
		split.apply(tc.text, func(p string) { got = append(got, p) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: split(%q) = %q, want %q", tc.reason, tc.text, got, tc.want)
		}
	}
}

func TestHFName(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want, reason string }{
		{"/models/Llama-3.1-8B/tokenizer.json", "hf:Llama-3.1-8B", "a model repository is named by its directory"},
		{"qwen3.json", "hf:qwen3", "any other file by its own name"},
		{"tokenizer.json", "hf:tokenizer", "no directory to name it by"},
	}
	for _, tc := range tests {
		if got := hfName(tc.path); got != tc.want {
			t.Errorf("%s: hfName(%q) = %q, want %q", tc.reason, tc.path, got, tc.want)
		}
	}
}
