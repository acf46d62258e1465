package bundle

import (
	"slices"
	"testing"
)

func TestRedactArgs(t *testing.T) {
	t.Parallel()
	in := []string{"surge", "run", "spec.yaml", "--target", "http://u:pw@h:8000", "--target=http://k@h:9",
		"--api-key", "sk-123", "--token=abc", "--api-key-env", "OPENAI_API_KEY",
		"--header", "X-Api-Key: gw-1", "--header=Authorization: Basic dTpw", "--header", "X-Team: a", "-H", "junk"}
	want := []string{"surge", "run", "spec.yaml", "--target", "http://h:8000", "--target=http://h:9",
		"--api-key", "(redacted)", "--token=(redacted)", "--api-key-env", "OPENAI_API_KEY",
		"--header", "X-Api-Key: (redacted)", "--header=Authorization: (redacted)", "--header", "X-Team: a", "-H", "junk: (redacted)"}
	if got := RedactArgs(in); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if in[4] != "http://u:pw@h:8000" {
		t.Error("RedactArgs changed its argument")
	}
}
