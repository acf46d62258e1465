package content

import "fmt"

// normalizer is the normalizer of a tokenizer.json, applied to ordinary
// text (not to added tokens) before pre-tokenization.
type normalizer func(string) string

// buildNormalizer accepts a null normalizer or NFC.
//
// NFC caveat: the module has no Unicode normalization tables (they live in
// golang.org/x/text/unicode/norm, which is not a dependency), so NFC is
// applied as the identity. Encode is therefore exact for text that is
// already in NFC — nearly all text, and everything our synthesis produces —
// and may differ from the reference on decomposed input such as "e" followed
// by U+0301 COMBINING ACUTE ACCENT. With x/text, nfc becomes norm.NFC.String.
func buildNormalizer(c *hfComponent) (normalizer, error) {
	if c == nil {
		return nil, nil
	}
	switch c.Type {
	case "NFC":
		return nfc, nil
	}
	return nil, fmt.Errorf("tokenizer.json: normalizer type %s is not supported (null or NFC only)", c.Type)
}

// nfc stands for Unicode normalization form C; see buildNormalizer.
func nfc(s string) string { return s }
