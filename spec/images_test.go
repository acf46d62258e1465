package spec

import (
	"testing"
)

// imagesHead is a spec up to a client's images block, which a test
// appends.
const imagesHead = `version: 1
duration: 1m
clients:
  - name: a
    model: m
    rate: 1/s
    input: 100
    output: 20
`

// TestImagesDecode checks an images block's values and defaults.
func TestImagesDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src                 string
		count, width, height, fmt string
		distinct                  int
	}{
		{"defaults", "    images: {size: 1280x720}\n", "fixed(value=1)", "fixed(value=1280)", "fixed(value=720)", "png", 0},
		{"upper-case X", "    images: {size: 64X32}\n", "fixed(value=1)", "fixed(value=64)", "fixed(value=32)", "png", 0},
		{"every key", "    images: {count: 2, size: {width: 512, height: \"uniform(min=256, max=1024)\"}, format: jpeg, distinct: 10}\n",
			"fixed(value=2)", "fixed(value=512)", "uniform(min=256,max=1024)", "jpeg", 10},
	}
	for _, tt := range tests {
		s, err := Parse("t.yaml", []byte(imagesHead+tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		im := s.Clients[0].Images
		if im == nil {
			t.Fatalf("%s: no images", tt.name)
		}
		got := []string{im.Count.String(), im.Width.String(), im.Height.String(), im.Format}
		want := []string{tt.count, tt.width, tt.height, tt.fmt}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: got %v, want %v", tt.name, got, want)
				break
			}
		}
		if im.Distinct != tt.distinct {
			t.Errorf("%s: distinct %d, want %d", tt.name, im.Distinct, tt.distinct)
		}
	}
}

// TestImagesErrors checks that bad images blocks get a message naming
// the key, with near misses suggested.
func TestImagesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      want
	}{
		{"near miss key", "    images: {size: 64x64, fromat: png}\n",
			want{"9:27: clients[0].images.fromat", `did you mean "format"?`}},
		{"near miss client key", "    image: {size: 64x64}\n",
			want{"9:5: clients[0].image", `did you mean "images"?`}},
		{"missing size", "    images: {count: 2}\n",
			want{"9:13: clients[0].images", "missing key size"}},
		{"bad size", "    images: {size: 1280by720}\n",
			want{"9:20: clients[0].images.size", "want WIDTHxHEIGHT"}},
		{"too big", "    images: {size: 8192x720}\n",
			want{"9:20: clients[0].images.size", "each side must be 16 to 4096 px"}},
		{"side near miss", "    images: {size: {width: 64, height: 64, heigth: 2}}\n",
			want{"9:44: clients[0].images.size.heigth", `did you mean "height"?`}},
		{"side too small", "    images: {size: {width: 8, height: 64}}\n",
			want{"9:28: clients[0].images.size.width", "must reach 16 to 4096 px"}},
		{"format", "    images: {size: 64x64, format: gif}\n",
			want{"9:35: clients[0].images.format", "(valid: png, jpeg)"}},
		{"no images", "    images: {size: 64x64, count: 0}\n",
			want{"9:34: clients[0].images.count", "never reaches 1 image"}},
		{"too many", "    images: {size: 64x64, count: 100}\n",
			want{"9:34: clients[0].images.count", "more than 64 images"}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.name, imagesHead+tt.src, tt.want)
	}
}

// TestImagesAPI checks images are refused where no message carries them.
func TestImagesAPI(t *testing.T) {
	t.Parallel()
	for _, api := range []string{"completions", "embeddings"} {
		src := "version: 1\nduration: 1m\nclients:\n  - name: a\n    model: m\n    api: " + api + "\n    rate: 1/s\n    input: 100\n"
		if api == "completions" {
			src += "    output: 20\n"
		}
		checkErrs(t, api, src+"    images: {size: 64x64}\n", want{map[string]string{"completions": "10:13", "embeddings": "9:13"}[api] + ": clients[0].images", "api " + api + " sends text alone: images need api chat, responses or messages"})
	}
}
