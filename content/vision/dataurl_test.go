package vision

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestParseDataURL(t *testing.T) {
	t.Parallel()
	png, _ := Encode(40, 30, 1, PNG)
	b64 := base64.StdEncoding.EncodeToString(png)
	if w, h, err := ParseDataURL("data:image/png;base64," + b64); err != nil || w != 40 || h != 30 {
		t.Errorf("png: %d×%d, %v", w, h, err)
	}
	bad := []struct{ url, want string }{
		{"https://example.com/a.png", "only data URLs"},
		{"data:image/png," + b64, "must be base64"},
		{"data:image/gif;base64," + b64, "want image/png or image/jpeg"},
		{"data:image/jpeg;base64," + b64, "not image/jpeg"},
		{"data:image/png;base64,AAAA", "reading the image's size"},
	}
	for _, c := range bad {
		if _, _, err := ParseDataURL(c.url); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDataURL(%.40q) = %v, want %q", c.url, err, c.want)
		}
	}
}

// FuzzParseDataURL checks any URL gives a size of at least 1×1 or an
// error, never a panic.
func FuzzParseDataURL(f *testing.F) {
	png, _ := Encode(16, 16, 1, PNG)
	jpg, _ := Encode(16, 16, 1, JPEG)
	f.Add("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
	f.Add("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jpg))
	f.Add("data:image/png;base64,iVBORw0KGgo=")
	f.Fuzz(func(t *testing.T, url string) {
		w, h, err := ParseDataURL(url)
		if err == nil && (w < 1 || h < 1) {
			t.Errorf("%d×%d with no error", w, h)
		}
	})
}
