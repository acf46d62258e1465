package content

import (
	"fmt"

	"golang.org/x/text/unicode/norm"
)

// normalizer is the normalizer of a tokenizer.json, applied to ordinary
// text (not to added tokens) before pre-tokenization.
type normalizer func(string) string

// buildNormalizer accepts a null normalizer or NFC.
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

// nfc converts s to Unicode normalization form C (canonical composition),
// so that, for example, "e" followed by U+0301 COMBINING ACUTE ACCENT becomes
// "é". Text already in NFC, which is nearly all text, comes back unchanged
// after a quick check, without copying.
func nfc(s string) string { return norm.NFC.String(s) }
