package importers

import (
	"math"

	"surge/trace"
)

// importedImages are the images of a request whose trace gives only
// their tokens in all and their count: the tokens split evenly (the
// first images taking what is left over), at most trace.MaxImages images
// and none of fewer than a token. A trace gives no sizes, so each image
// is the square whose 28-px patches, Qwen2-VL's (ServeGen's models are
// Qwen-VL), are about its tokens: side 28·⌈√tokens⌉ px within
// trace.MinImageSide and MaxImageSide. An image keeps the trace's tokens
// however its size would count, and its pixels are made from seed.
func importedImages(tokens, count int, seed uint64) []trace.Image {
	count = min(count, trace.MaxImages, tokens)
	if count <= 0 {
		return nil
	}
	out := make([]trace.Image, count)
	for i := range out {
		t := tokens / count
		if i < tokens%count {
			t++
		}
		side := min(max(28*int(math.Ceil(math.Sqrt(float64(t)))), trace.MinImageSide), trace.MaxImageSide)
		out[i] = trace.Image{W: side, H: side, Tokens: min(t, trace.MaxTokens), Seed: splitmix(seed+uint64(i)) & trace.MaxSeed}
	}
	return out
}
