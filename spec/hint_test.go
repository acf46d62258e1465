package spec

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b   string
		want   int
		reason string
	}{
		{"", "", 0, "empty"},
		{"cv", "cv", 0, "equal"},
		{"cvv", "cv", 1, "one insertion"},
		{"rate", "rtae", 1, "adjacent swap counts once"},
		{"kitten", "sitting", 3, "classic Levenshtein example"},
		{"ca", "abc", 3, "optimal string alignment, not full Damerau (which gives 2)"},
		{"", "abc", 3, "all insertions"},
		{"héllo", "hello", 1, "runes, not bytes"},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: distance(%q, %q) = %d, want %d", tt.reason, tt.a, tt.b, got, tt.want)
		}
		if got := distance(tt.b, tt.a); got != tt.want {
			t.Errorf("%s: distance is not symmetric for %q, %q: %d", tt.reason, tt.a, tt.b, got)
		}
	}
}

func TestClosest(t *testing.T) {
	t.Parallel()
	keys := []string{"process", "cv", "burstiness", "stages", "ramp", "temperature"}
	tests := []struct {
		word, want string
		reason     string
	}{
		{"cvv", "cv", "typo on a short key"},
		{"proces", "process", "missing letter"},
		{"Stages", "stages", "case only"},
		{"temp", "temperature", "prefix of three letters or more"},
		{"ab", "", "two edits on a two-letter key is no hint"},
		{"xyzzy", "", "nothing close"},
		{"rmap", "ramp", "swap"},
	}
	for _, tt := range tests {
		if got := closest(tt.word, keys); got != tt.want {
			t.Errorf("%s: closest(%q) = %q, want %q", tt.reason, tt.word, got, tt.want)
		}
	}
}

func TestUnknownKeyMsg(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key, place string
		valid      []string
		want       string
		reason     string
	}{
		{"cvv", "arrival", arrivalKeys, `did you mean "cv"?`, "edit distance"},
		{"cv", "client", clientKeys, "cv goes under arrival", "one level too high"},
		{"top_p", "client", clientKeys, "top_p goes under sampling", "sampling key on a client"},
		{"model", "", topKeys, "model goes under each client", "client key at the top"},
		{"seed", "client", clientKeys, "seed goes at the top level", "top key on a client"},
		{"qps", "client", clientKeys, `did you mean "rate"?`, "another tool's name"},
		{"isl", "client", clientKeys, `did you mean "input"?`, "vLLM bench name"},
		{"n", "sampling", samplingKeys, "n goes on the client, beside sampling", "a request option under sampling"},
		{"stop_sequences", "client", clientKeys, `did you mean "stop"?`, "Anthropic's name"},
		{"zzz", "ramp", []string{"from", "to", "over"}, "valid keys: from, to, over", "no hint: list them"},
	}
	for _, tt := range tests {
		if got := unknownKeyMsg(tt.key, tt.valid, tt.place); !strings.Contains(got, tt.want) {
			t.Errorf("%s: unknownKeyMsg(%q) = %q, want it to contain %q", tt.reason, tt.key, got, tt.want)
		}
	}
}
