package vision

import (
	"math"
	"strings"
)

// Family is a model family's rule for the tokens of an image.
type Family string

// The families Tokens knows.
const (
	// OpenAI is GPT-4o, GPT-4.1, GPT-4 Turbo and the o-series at detail
	// high: the image is scaled to fit 2048×2048, then down so that its
	// shorter side is at most 768 px, and costs 85 tokens plus 170 per 512 px
	// tile (OpenAI, "Images and vision: calculating costs").
	OpenAI Family = "openai"
	// OpenAIMini is GPT-4o mini: the same tiles, 2833 base tokens and
	// 5667 per tile.
	OpenAIMini Family = "openai-mini"
	// Anthropic is Claude: an image whose long edge passes 1568 px, or
	// which would pass about 1600 tokens, is scaled down keeping its
	// aspect, and costs width × height / 750 tokens (Anthropic, "Vision:
	// evaluate image size").
	Anthropic Family = "anthropic"
	// Qwen is Qwen2-VL and Qwen2.5-VL: smart resize rounds each side to a
	// multiple of 28 px within 4·28² to 16384·28² pixels, and each 28×28
	// patch is one token (qwen-vl-utils smart_resize, the models' cards).
	Qwen Family = "qwen2-vl"
	// Qwen3 is Qwen3-VL: the same with 32 px patches (16 px, merged 2×2).
	Qwen3 Family = "qwen3-vl"
	// LLaVA is LLaVA-1.5: every image is resized to 336×336 and is 24×24
	// = 576 tokens, whatever its size.
	LLaVA Family = "llava"
	// Llama is Llama 3.2 Vision: the image is cut into up to 4 tiles of
	// 560×560 px, each (560/14)² + 1 = 1601 tokens of the vision encoder.
	Llama Family = "llama-vision"
)

// DefaultFamily is the family of a model name Tokens does not recognise:
// Qwen2-VL's, the rule of the open-weight vision models most served.
const DefaultFamily = Qwen

// FamilyOf returns the family of a served model name, by the substrings
// its name holds (case-insensitive), or DefaultFamily.
func FamilyOf(model string) Family {
	m := strings.ToLower(model)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(m, s) {
				return true
			}
		}
		return false
	}
	switch {
	case has("gpt-4o-mini"):
		return OpenAIMini
	case has("gpt-") || hasPrefix(m, "o1", "o3", "o4"):
		return OpenAI
	case has("claude"):
		return Anthropic
	case has("qwen3-vl", "qwen3vl"):
		return Qwen3
	case has("qwen") && has("vl"):
		return Qwen
	case has("llava"):
		return LLaVA
	case has("llama") && has("vision", "3.2-11b", "3.2-90b", "mllama"):
		return Llama
	}
	return DefaultFamily
}

// hasPrefix reports whether s starts with one of prefixes.
func hasPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Tokens is the number of tokens the served model makes of one image of
// w×h pixels (both at least 1), by its family's rule (FamilyOf).
func Tokens(model string, w, h int) int { return FamilyOf(model).Tokens(w, h) }

// Tokens is the number of tokens f makes of one image of w×h pixels.
func (f Family) Tokens(w, h int) int {
	w, h = max(w, 1), max(h, 1)
	switch f {
	case OpenAI:
		return openAITiles(w, h, 85, 170)
	case OpenAIMini:
		return openAITiles(w, h, 2833, 5667)
	case Anthropic:
		return anthropicTokens(w, h)
	case Qwen3:
		return qwenTokens(w, h, 32)
	case LLaVA:
		return 576
	case Llama:
		return llamaTiles(w, h) * 1601
	}
	return qwenTokens(w, h, 28)
}

// openAITiles is OpenAI's detail-high count: fit in 2048×2048, scale the
// shorter side down to 768 (never up), then base plus per tile of 512×512.
func openAITiles(w, h, base, perTile int) int {
	fw, fh := float64(w), float64(h)
	if fw > 2048 || fh > 2048 {
		r := math.Min(2048/fw, 2048/fh)
		fw, fh = math.Floor(fw*r), math.Floor(fh*r)
	}
	if short := math.Min(fw, fh); short > 768 {
		fw, fh = math.Floor(fw*768/short), math.Floor(fh*768/short)
	}
	tiles := int(math.Ceil(fw/512)) * int(math.Ceil(fh/512))
	return base + perTile*tiles
}

// anthropicTokens scales an image down to a long edge of 1568 px and
// about 1600 tokens (1.2 megapixels), then counts w·h/750, rounded up.
func anthropicTokens(w, h int) int {
	fw, fh := float64(w), float64(h)
	r := math.Min(1, 1568/math.Max(fw, fh))
	r = math.Min(r, math.Sqrt(1600*750/(fw*fh)))
	fw, fh = math.Max(1, math.Floor(fw*r)), math.Max(1, math.Floor(fh*r))
	return int(math.Ceil(fw * fh / 750))
}

// qwenTokens is smart resize with patches of factor px: each side rounded
// to a multiple of factor, the area kept within 4 and 16384 patches, then
// one token a patch.
func qwenTokens(w, h, factor int) int {
	f := float64(factor)
	minPixels, maxPixels := 4*f*f, 16384*f*f
	fw, fh := float64(w), float64(h)
	// Python's round, which smart_resize uses, rounds halves to even.
	bw, bh := math.Max(f, math.RoundToEven(fw/f)*f), math.Max(f, math.RoundToEven(fh/f)*f)
	switch {
	case bw*bh > maxPixels:
		beta := math.Sqrt(fw * fh / maxPixels)
		bw, bh = math.Max(f, math.Floor(fw/beta/f)*f), math.Max(f, math.Floor(fh/beta/f)*f)
	case bw*bh < minPixels:
		beta := math.Sqrt(minPixels / (fw * fh))
		bw, bh = math.Ceil(fw*beta/f)*f, math.Ceil(fh*beta/f)*f
	}
	return int(bw/f) * int(bh/f)
}

// llamaTiles is the tiles of 560 px Llama 3.2 Vision cuts an image into:
// as many as cover it, at most 4, the longer side giving way first.
func llamaTiles(w, h int) int {
	tw, th := (w+559)/560, (h+559)/560
	for tw*th > 4 {
		if tw >= th {
			tw--
		} else {
			th--
		}
	}
	return tw * th
}
