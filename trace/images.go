package trace

import "fmt"

// Image is one image a turn's user message carries: its size, the
// tokens the served model makes of it (by its family's rule, surge's
// vision.Tokens, or as an imported trace says), and the seed its pixels
// are made from when sent. A trace never holds an image's bytes.
type Image struct {
	W      int `json:"w"`
	H      int `json:"h"`
	Tokens int `json:"tokens"`
	// Seed makes the image's pixels (vision.Encode): equal seeds, sizes
	// and formats are equal images, byte for byte. Below 2^53, so that
	// every JSON reader holds it exactly.
	Seed uint64 `json:"seed"`
	// Format is "jpeg", or empty for PNG.
	Format string `json:"format,omitempty"`
}

// Bounds on a turn's images.
const (
	// MaxImages bounds the images of one turn.
	MaxImages = 64
	// MinImageSide and MaxImageSide bound an image's width and height in
	// pixels.
	MinImageSide = 16
	MaxImageSide = 4096
	// MaxSeed bounds an image's seed: 2^53 − 1, exact in every JSON reader.
	MaxSeed = 1<<53 - 1
)

// ImageTokens is the sum of the tokens of images.
func ImageTokens(images []Image) int {
	n := 0
	for _, im := range images {
		n += im.Tokens
	}
	return n
}

// checkImages checks a turn's images against the bounds.
func (t *Turn) checkImages() error {
	if len(t.Images) > MaxImages {
		return fmt.Errorf("%d images: want at most %d (trace.MaxImages)", len(t.Images), MaxImages)
	}
	for i, im := range t.Images {
		switch {
		case im.W < MinImageSide || im.W > MaxImageSide || im.H < MinImageSide || im.H > MaxImageSide:
			return fmt.Errorf("images[%d]: %d×%d px: each side must be %d to %d", i, im.W, im.H, MinImageSide, MaxImageSide)
		case im.Tokens < 1 || im.Tokens > MaxTokens:
			return fmt.Errorf("images[%d]: tokens %d: want 1 to %d", i, im.Tokens, MaxTokens)
		case im.Seed > MaxSeed:
			return fmt.Errorf("images[%d]: seed %d: want at most 2^53-1", i, im.Seed)
		case im.Format != "" && im.Format != "jpeg" && im.Format != "png":
			return fmt.Errorf("images[%d]: format %q: want png or jpeg", i, im.Format)
		}
	}
	return nil
}
