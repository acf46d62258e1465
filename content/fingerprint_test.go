package content

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"
)

func TestFingerprint(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	fileSum := sha256.Sum256(data)
	nameSum := sha256.Sum256([]byte("o200k_base"))
	tiny, err := LoadHF(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	o200k, err := Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	cl100k, err := Builtin("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tok          Tokenizer
		want, reason string
	}{
		{tiny, "sha256:" + hex.EncodeToString(fileSum[:]), "a loaded file is fingerprinted by its bytes"},
		{o200k, "sha256:" + hex.EncodeToString(nameSum[:]), "a built-in by its name"},
	}
	for _, tc := range tests {
		if got := Fingerprint(tc.tok); got != tc.want {
			t.Errorf("%s: Fingerprint(%s) = %q, want %q", tc.reason, tc.tok.Name(), got, tc.want)
		}
	}
	if Fingerprint(o200k) == Fingerprint(cl100k) {
		t.Error("the two built-ins have the same fingerprint")
	}
	edited := tinyTokenizer(t, func(m map[string]any) { jsonField(m, "model")["ignore_merges"] = false })
	if edited.Hash() == Fingerprint(tiny) {
		t.Error("editing tokenizer.json did not change its hash")
	}
}
