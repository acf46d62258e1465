package vision

import (
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"strings"
)

// headBytes bounds the base64 read to find an image's size: the header
// of a PNG is in its first bytes, a JPEG's frame after its tables and
// any metadata, well within 256 KiB.
const headBytes = 256 << 10

// ParseDataURL reads the size of the image a data URL carries
// ("data:image/png;base64,…"), decoding only its header. Other URLs
// (http, https) are refused: an engine that fetches nothing cannot know
// their size.
func ParseDataURL(url string) (w, h int, err error) {
	mediaType, data, err := SplitDataURL(url)
	if err != nil {
		return 0, 0, err
	}
	return Size(mediaType, data)
}

// SplitDataURL returns the media type and the base64 data of a data URL
// ("data:image/png;base64,…"); other URLs are refused.
func SplitDataURL(url string) (mediaType, data string, err error) {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return "", "", errors.New("image_url: only data URLs (data:image/png;base64,…) are supported")
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return "", "", errors.New("image_url: a data URL must be base64 (data:image/png;base64,…)")
	}
	return strings.TrimSuffix(meta, ";base64"), data, nil
}

// Size reads the size of an image of mediaType given in base64, decoding
// only its header.
func Size(mediaType, data string) (w, h int, err error) {
	if mediaType != "image/png" && mediaType != "image/jpeg" {
		return 0, 0, fmt.Errorf("image media type %q: want image/png or image/jpeg", mediaType)
	}
	head := data[:min(len(data), headBytes)]
	cfg, format, err := image.DecodeConfig(base64.NewDecoder(base64.StdEncoding, strings.NewReader(head)))
	if err != nil {
		return 0, 0, fmt.Errorf("reading the image's size: %w", err)
	}
	if MediaType(format) != mediaType {
		return 0, 0, fmt.Errorf("image is a %s, not %s", format, mediaType)
	}
	if cfg.Width < 1 || cfg.Height < 1 {
		return 0, 0, fmt.Errorf("image of %d×%d pixels", cfg.Width, cfg.Height)
	}
	return cfg.Width, cfg.Height, nil
}
