package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"surge/content/vision"
	"surge/dist"
	"surge/trace"
)

// Images is the images a client's requests carry after their text: Count
// images a request (sampled, rounded, within 0..trace.MaxImages), each of
// Width×Height pixels (sampled, rounded, within vision.MinSide..MaxSide),
// in Format. Distinct, when positive, draws each image from that many per
// client, so they repeat; 0 makes every image its own.
type Images struct {
	Count         dist.Dist
	Width, Height dist.Dist
	Format        string // vision.PNG or vision.JPEG
	Distinct      int
}

// MaxDistinctImages bounds Images.Distinct.
const MaxDistinctImages = 1 << 20

// imagesKeys are the keys of a client's images block.
var imagesKeys = []string{"count", "size", "format", "distinct"}

// sizeKeys are the keys of an images block's size given as distributions.
var sizeKeys = []string{"width", "height"}

// images reads a client's images block.
func (d *decoder) images(n ast.Node, path string) *Images {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, imagesKeys, "images")
	im := &Images{Format: vision.PNG}
	im.Count, _ = dist.Parse("1")
	if n, p, ok := o.get("count"); ok {
		im.Count = d.imageCount(n, p)
	}
	if n, p, ok := d.require(o, "size", "the images' pixels, like size: 1280x720 or size: {width: 1024, height: {dist: uniform, min: 256, max: 2048}}"); ok {
		im.Width, im.Height = d.imageSize(n, p)
	}
	field(o, "format", d.choice("image format", vision.Formats()), &im.Format)
	if field(o, "distinct", d.count, &im.Distinct) && im.Distinct != 0 {
		d.countIn(o, "distinct", im.Distinct, MaxDistinctImages, "spec.MaxDistinctImages", 0, "")
	}
	return im
}

// imageCount reads the images a request carries: a distribution reaching
// at least 1 and not always above trace.MaxImages.
func (d *decoder) imageCount(n ast.Node, path string) dist.Dist {
	dd := d.dist(n, path, 0)
	if q, ok := dd.(dist.Quantiler); ok {
		switch {
		case q.Quantile(1) < 0.5:
			d.errorf(d.value(n, path), path, "count (%s) never reaches 1 image; remove the images block for requests without any", dd)
			return nil
		case q.Quantile(0) > trace.MaxImages:
			d.errorf(d.value(n, path), path, "count (%s) is always more than %d images a request (trace.MaxImages)", dd, trace.MaxImages)
			return nil
		}
	}
	return dd
}

// imageSize reads an images block's size: "WxH", or a mapping of width
// and height distributions.
func (d *decoder) imageSize(n ast.Node, path string) (w, h dist.Dist) {
	v := d.value(n, path)
	if v == nil {
		return nil, nil
	}
	if _, ok := v.(*ast.MappingNode); !ok {
		s, ok := d.str(v, path)
		if !ok {
			return nil, nil
		}
		fw, fh, err := ParseImageSize(s)
		if err != nil {
			d.errorf(v, path, "%v", err)
			return nil, nil
		}
		w, _ = dist.Parse(strconv.Itoa(fw))
		h, _ = dist.Parse(strconv.Itoa(fh))
		return w, h
	}
	o, ok := d.object(v, path)
	if !ok {
		return nil, nil
	}
	d.known(o, sizeKeys, "images size")
	return d.side(o, "width"), d.side(o, "height")
}

// side reads one side of an image size: a distribution of pixels that
// reaches the least side and is not always above the most.
func (d *decoder) side(o *object, key string) dist.Dist {
	n, path, ok := d.require(o, key, "pixels, like "+key+": 1024 or {dist: uniform, min: 256, max: 2048}")
	if !ok {
		return nil
	}
	dd := d.dist(n, path, 0)
	if q, ok := dd.(dist.Quantiler); ok && (q.Quantile(1) < vision.MinSide || q.Quantile(0) > vision.MaxSide) {
		d.errorf(d.value(n, path), path, "%s (%s) must reach %d to %d px; sampled sides are kept within them", key, dd, vision.MinSide, vision.MaxSide)
		return nil
	}
	return dd
}

// ParseImageSize reads a size written WxH, like 1280x720, each side
// within vision.MinSide..MaxSide pixels.
func ParseImageSize(s string) (w, h int, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if !ok || errW != nil || errH != nil {
		return 0, 0, fmt.Errorf("size %q: want WIDTHxHEIGHT in pixels, like 1280x720, or {width: ..., height: ...}", s)
	}
	if w < vision.MinSide || h < vision.MinSide || w > vision.MaxSide || h > vision.MaxSide {
		return 0, 0, fmt.Errorf("size %s: each side must be %d to %d px", s, vision.MinSide, vision.MaxSide)
	}
	return w, h, nil
}

// ImageCount rounds a sampled count of images into 0..trace.MaxImages.
func ImageCount(x float64) int {
	if math.IsNaN(x) || x < 0 {
		return 0
	}
	return int(math.Round(min(x, trace.MaxImages)))
}

// ImageSide rounds a sampled side into vision.MinSide..MaxSide pixels.
func ImageSide(x float64) int {
	if math.IsNaN(x) {
		return vision.MinSide
	}
	return int(math.Round(min(max(x, vision.MinSide), vision.MaxSide)))
}
