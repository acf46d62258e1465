package vision

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
)

// The formats of the images surge sends.
const (
	PNG  = "png"
	JPEG = "jpeg"
)

// Bounds on a synthetic image's sides, in pixels.
const (
	MinSide = 16
	MaxSide = 4096
)

// cell is the side in pixels of the squares of one colour a synthetic
// image is made of: big enough that PNG and JPEG compress it well (a
// 4096×4096 image is well under a megabyte), small enough that it is no
// flat colour a server could treat as empty.
const cell = 16

// MediaType is the MIME type of format: image/png or image/jpeg.
func MediaType(format string) string {
	if format == JPEG {
		return "image/jpeg"
	}
	return "image/png"
}

// Formats returns the formats Encode writes.
func Formats() []string { return []string{PNG, JPEG} }

// Encode returns the synthetic image of w×h pixels made from seed, in
// format (PNG for ""): squares of 16 px whose colours are drawn from
// seed, so that one seed, size and format always give the same bytes.
func Encode(w, h int, seed uint64, format string) ([]byte, error) {
	if w < MinSide || h < MinSide || w > MaxSide || h > MaxSide {
		return nil, fmt.Errorf("image of %d×%d: each side must be %d to %d px", w, h, MinSide, MaxSide)
	}
	img := pattern(w, h, seed)
	var b bytes.Buffer
	switch format {
	case PNG, "":
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&b, img); err != nil {
			return nil, fmt.Errorf("encoding a png of %d×%d: %w", w, h, err)
		}
	case JPEG:
		if err := jpeg.Encode(&b, toYCbCr(img), &jpeg.Options{Quality: 85}); err != nil {
			return nil, fmt.Errorf("encoding a jpeg of %d×%d: %w", w, h, err)
		}
	default:
		return nil, fmt.Errorf("image format %q: want png or jpeg", format)
	}
	return b.Bytes(), nil
}

// pattern draws the squares: a palette of 64 colours and a colour for
// each square, all from seed.
func pattern(w, h int, seed uint64) *image.Paletted {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pal := make(color.Palette, 64)
	for i := range pal {
		v := rng.Uint32()
		pal[i] = color.RGBA{R: uint8(v), G: uint8(v >> 8), B: uint8(v >> 16), A: 255}
	}
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	cols := (w + cell - 1) / cell
	row := make([]uint8, cols)
	for y0 := 0; y0 < h; y0 += cell {
		for i := range row {
			row[i] = uint8(rng.IntN(len(pal)))
		}
		line := img.Pix[y0*img.Stride : y0*img.Stride+w]
		for x := range line {
			line[x] = row[x/cell]
		}
		for y := y0 + 1; y < min(y0+cell, h); y++ {
			copy(img.Pix[y*img.Stride:y*img.Stride+w], line)
		}
	}
	return img
}

// toYCbCr converts p to a 4:2:0 YCbCr image, which the JPEG encoder
// writes without a per-pixel interface call.
func toYCbCr(p *image.Paletted) *image.YCbCr {
	b := p.Bounds()
	out := image.NewYCbCr(b, image.YCbCrSubsampleRatio420)
	ycc := make([][3]uint8, len(p.Palette))
	for i, c := range p.Palette {
		r, g, bl, _ := c.RGBA()
		y, cb, cr := color.RGBToYCbCr(uint8(r>>8), uint8(g>>8), uint8(bl>>8))
		ycc[i] = [3]uint8{y, cb, cr}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := ycc[p.Pix[y*p.Stride+x]]
			out.Y[out.YOffset(x, y)] = c[0]
			if x%2 == 0 && y%2 == 0 {
				ci := out.COffset(x, y)
				out.Cb[ci], out.Cr[ci] = c[1], c[2]
			}
		}
	}
	return out
}
