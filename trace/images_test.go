package trace

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestImagesValidate(t *testing.T) {
	t.Parallel()
	ok := Image{W: 640, H: 480, Tokens: 391, Seed: 7}
	tests := []struct {
		api    string
		images []Image
		want   string // "" for valid
	}{
		{"chat", []Image{ok, {W: 16, H: 4096, Tokens: 1, Seed: MaxSeed, Format: "jpeg"}}, ""},
		{"messages", make([]Image, MaxImages+1), "want at most 64"},
		{"chat", []Image{{W: 15, H: 480, Tokens: 1}}, "each side must be 16 to 4096"},
		{"chat", []Image{{W: 640, H: 4097, Tokens: 1}}, "each side must be 16 to 4096"},
		{"chat", []Image{{W: 640, H: 480}}, "tokens 0"},
		{"chat", []Image{{W: 640, H: 480, Tokens: 1, Seed: MaxSeed + 1}}, "2^53-1"},
		{"chat", []Image{{W: 640, H: 480, Tokens: 1, Format: "gif"}}, `format "gif"`},
		{"completions", []Image{ok}, "only chat, responses and messages"},
		{"embeddings", []Image{ok}, "only chat, responses and messages"},
	}
	for _, tt := range tests {
		s := Session{API: tt.api, Turns: []Turn{{InputTokens: 1, OutputTokens: 1, Images: tt.images}}}
		err := s.Validate()
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s %d images: %v, want %q", tt.api, len(tt.images), err, tt.want)
		}
	}
}

func TestImagesRoundTrip(t *testing.T) {
	t.Parallel()
	in := Session{Client: "c", API: "chat", Model: "m", Turns: []Turn{{InputTokens: 5, OutputTokens: 3,
		Images: []Image{{W: 640, H: 480, Tokens: 391, Seed: 7}, {W: 16, H: 16, Tokens: 4, Seed: 8, Format: "jpeg"}}}}}
	b, err := json.Marshal(&in)
	if err != nil {
		t.Fatal(err)
	}
	line := string(b)
	want := `"images":[{"w":640,"h":480,"tokens":391,"seed":7},{"w":16,"h":16,"tokens":4,"seed":8,"format":"jpeg"}]`
	if !strings.Contains(line, want) {
		t.Errorf("line %s\nwant it to hold %s", line, want)
	}
	if got := ImageTokens(in.Turns[0].Images); got != 395 {
		t.Errorf("ImageTokens = %d, want 395", got)
	}
}
