package content

import (
	"encoding/json"
	"fmt"
)

// hfFile is the part of a Hugging Face tokenizer.json that LoadHF reads.
// The post_processor is ignored: it only adds special tokens such as BOS,
// which Encode never adds.
type hfFile struct {
	AddedTokens  []hfAddedToken `json:"added_tokens"`
	Normalizer   *hfComponent   `json:"normalizer"`
	PreTokenizer *hfComponent   `json:"pre_tokenizer"`
	Decoder      *hfComponent   `json:"decoder"`
	Model        *hfModel       `json:"model"`
}

// hfAddedToken is one entry of added_tokens. Whether it is special does not
// matter to Encode, which matches both kinds; "normalized" is ignored too.
type hfAddedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
}

// hfComponent is a normalizer, pre-tokenizer or decoder: a "type" tag and
// the fields of the types LoadHF supports.
type hfComponent struct {
	Type          string         `json:"type"`
	PreTokenizers []*hfComponent `json:"pretokenizers"` // Sequence pre-tokenizer
	Pattern       *hfPattern     `json:"pattern"`       // Split
	Behavior      string         `json:"behavior"`      // Split
	Invert        bool           `json:"invert"`        // Split
	// AddPrefixSpace and UseRegex belong to ByteLevel; UseRegex defaults
	// to true when absent, as in the Hugging Face library.
	AddPrefixSpace bool  `json:"add_prefix_space"`
	UseRegex       *bool `json:"use_regex"`
}

// hfPattern is a Split pattern: exactly one of Regex and String is set.
type hfPattern struct {
	Regex  *string `json:"Regex"`
	String *string `json:"String"`
}

// hfModel is the "model" object of a BPE tokenizer.
type hfModel struct {
	Type                    string         `json:"type"`
	Vocab                   map[string]int `json:"vocab"`
	Merges                  hfMerges       `json:"merges"`
	IgnoreMerges            bool           `json:"ignore_merges"`
	Dropout                 *float64       `json:"dropout"`
	ByteFallback            bool           `json:"byte_fallback"`
	ContinuingSubwordPrefix string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         string         `json:"end_of_word_suffix"`
}

// hfMerges is model.merges in either of its two spellings: "a b" strings
// (tokenizers before 0.20) or ["a", "b"] pairs. A nil hfMerges means the
// field was absent.
type hfMerges [][2]string

// UnmarshalJSON reads either spelling of the merges list; the first
// element decides which one the whole list uses.
func (m *hfMerges) UnmarshalJSON(data []byte) error {
	if mergesArePairs(data) {
		var pairs [][]string
		if err := json.Unmarshal(data, &pairs); err != nil {
			return fmt.Errorf("merges: %w", err)
		}
		out := make(hfMerges, len(pairs))
		for i, p := range pairs {
			if len(p) != 2 {
				return fmt.Errorf("merges[%d]: a pair has 2 tokens, got %d", i, len(p))
			}
			out[i] = [2]string{p[0], p[1]}
		}
		*m = out
		return nil
	}
	var lines []string
	if err := json.Unmarshal(data, &lines); err != nil {
		return fmt.Errorf("merges: want a list of \"a b\" strings or of [a, b] pairs: %w", err)
	}
	out := make(hfMerges, len(lines))
	for i, line := range lines {
		a, b, ok := splitMergeLine(line)
		if !ok {
			return fmt.Errorf("merges[%d] %q: want two tokens separated by one space", i, line)
		}
		out[i] = [2]string{a, b}
	}
	*m = out
	return nil
}

// mergesArePairs reports whether the JSON list data starts with a nested
// list, the [a, b] spelling.
func mergesArePairs(data []byte) bool {
	opened := false
	for _, c := range data {
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '[' && !opened:
			opened = true
		default:
			return opened && c == '['
		}
	}
	return false
}

// splitMergeLine splits "a b" at its only space.
func splitMergeLine(line string) (a, b string, ok bool) {
	at := -1
	for i := 0; i < len(line); i++ {
		if line[i] != ' ' {
			continue
		}
		if at >= 0 {
			return "", "", false
		}
		at = i
	}
	if at <= 0 || at == len(line)-1 {
		return "", "", false
	}
	return line[:at], line[at+1:], true
}

// parseHFFile decodes tokenizer.json bytes.
func parseHFFile(data []byte) (*hfFile, error) {
	var f hfFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("tokenizer.json: %w", err)
	}
	return &f, nil
}
