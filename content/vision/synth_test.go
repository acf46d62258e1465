package vision

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// TestEncode checks an image is the same bytes for the same seed, other
// bytes for another, and reads back at its size and format.
func TestEncode(t *testing.T) {
	t.Parallel()
	for _, f := range Formats() {
		for _, size := range [][2]int{{16, 16}, {17, 33}, {640, 480}} {
			a, err := Encode(size[0], size[1], 7, f)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Encode(size[0], size[1], 7, f)
			c, _ := Encode(size[0], size[1], 8, f)
			if !bytes.Equal(a, b) {
				t.Errorf("%s %v: seed 7 gave two images", f, size)
			}
			if bytes.Equal(a, c) {
				t.Errorf("%s %v: seeds 7 and 8 gave one image", f, size)
			}
			w, h, err := Size(MediaType(f), base64.StdEncoding.EncodeToString(a))
			if err != nil || w != size[0] || h != size[1] {
				t.Errorf("%s %v: read back %d×%d, %v", f, size, w, h, err)
			}
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h   int
		format string
	}{{15, 16, PNG}, {16, MaxSide + 1, PNG}, {16, 16, "gif"}} {
		if _, err := Encode(c.w, c.h, 1, c.format); err == nil {
			t.Errorf("Encode(%d, %d, %q) took it", c.w, c.h, c.format)
		}
	}
}
