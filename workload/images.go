package workload

import (
	"math/rand/v2"

	"surge/content/vision"
	"surge/spec"
	"surge/trace"
)

// imageStream labels the generators of a session's images, apart from
// its lengths' and text's, so a spec's images change nothing else.
const imageStream uint64 = 0x696d6167 // "imag"

// addImages gives the turns of session s of client c their images: every
// turn carrying a user's new message (each turn of a single, chat, rag or
// batch session; an agent episode's first call, its later ones carrying
// tool results). Counts and sizes come from a generator of the session's
// own; each image's tokens from the served model's rule (vision.Tokens).
func addImages(seed uint64, c *client, s *trace.Session) {
	im := c.Images
	if im == nil {
		return
	}
	r := rand.New(rand.NewPCG(mix(seed^imageStream), mix(c.key^mix(uint64(s.Index)))))
	turns := s.Turns
	if c.Session.Kind == spec.KindAgent {
		turns = turns[:1]
	}
	format := im.Format
	if format == vision.PNG {
		format = "" // the trace's default
	}
	for k := range turns {
		n := spec.ImageCount(im.Count.Sample(r))
		for i := range n {
			w, h := spec.ImageSide(im.Width.Sample(r)), spec.ImageSide(im.Height.Sample(r))
			turns[k].Images = append(turns[k].Images, trace.Image{
				W: w, H: h, Tokens: vision.Tokens(c.Model, w, h),
				Seed: imageSeed(seed, c, s.Index, k, i, r), Format: format,
			})
		}
	}
}

// imageSeed is the seed of image i of turn k of session index: its own,
// or, when the client's images repeat, one of its Distinct.
func imageSeed(seed uint64, c *client, index, k, i int, r *rand.Rand) uint64 {
	x := mix(seed^imageStream) ^ c.key
	if d := c.Images.Distinct; d > 0 {
		x = mix(x ^ mix(uint64(r.IntN(d))))
	} else {
		x = mix(x ^ mix(uint64(index)<<32^uint64(k)<<8^uint64(i)))
	}
	return x & trace.MaxSeed
}
