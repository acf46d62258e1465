package importers

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// pmf is a discrete law of token counts: values with cumulative weights.
type pmf struct {
	values []int
	cum    []float64 // cum[i] = Σ_{j≤i} weight_j
}

// sample draws a value: the first whose cumulative weight exceeds u·total,
// u uniform on [0, 1).
func (p *pmf) sample(r *rand.Rand) int {
	u := r.Float64() * p.cum[len(p.cum)-1]
	i := sort.SearchFloat64s(p.cum, u)
	for i < len(p.cum)-1 && p.cum[i] <= u {
		i++ // SearchFloat64s finds cum ≥ u; a zero-weight step is skipped
	}
	return p.values[i]
}

// parsePyDict parses a ServeGen PMF, a Python dict literal of token
// counts and probabilities such as "{224: 0.0003, 225: 0.01}" ("{}" is
// empty: nil). Counts must be whole numbers from 0 to maxTokens, weights
// finite and not negative with a positive sum.
func parsePyDict(s string) (*pmf, error) {
	return parseDict(s, func(n float64) bool { return n == math.Trunc(n) && n >= 0 && n <= maxTokens },
		fmt.Sprintf("a whole number of tokens, 0 to %d", maxTokens))
}

// ratios is a discrete law of shares in [0, 1]: values with cumulative
// weights, as a pmf with float values.
type ratios struct {
	values []float64
	cum    []float64
}

// sample draws a value as pmf.sample does.
func (q *ratios) sample(r *rand.Rand) float64 {
	u := r.Float64() * q.cum[len(q.cum)-1]
	i := sort.SearchFloat64s(q.cum, u)
	for i < len(q.cum)-1 && q.cum[i] <= u {
		i++
	}
	return q.values[i]
}

// parseRatios parses a ServeGen PMF of shares, such as reason_ratio's
// "{0.0: 0.1, 0.25: 0.9}": keys in [0, 1].
func parseRatios(s string) (*ratios, error) {
	var q *ratios
	var vals []float64
	p, err := parseDictFunc(s, func(n float64) bool { return n >= 0 && n <= 1 }, "a share from 0 to 1", func(v float64) { vals = append(vals, v) })
	if p != nil {
		q = &ratios{values: vals, cum: p.cum}
	}
	return q, err
}

// parseDict parses a PMF whose keys pass ok (want describes them).
func parseDict(s string, ok func(float64) bool, want string) (*pmf, error) {
	var vals []int
	p, err := parseDictFunc(s, ok, want, func(v float64) { vals = append(vals, int(v)) })
	if p != nil {
		p.values = vals
	}
	return p, err
}

// parseDictFunc parses a PMF, handing each key in order of value to
// value and returning the cumulative weights.
func parseDictFunc(s string, ok func(float64) bool, want string, value func(float64)) (*pmf, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("%q: want a dict literal {count: probability, …}", truncate([]byte(s)))
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	if body == "" {
		return nil, nil
	}
	type entry struct {
		v float64
		w float64
	}
	var es []entry
	for item := range strings.SplitSeq(body, ",") {
		k, v, found := strings.Cut(item, ":")
		if !found {
			return nil, fmt.Errorf("entry %q: want key: probability", item)
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(k), 64)
		if err != nil || !ok(n) {
			return nil, fmt.Errorf("key %q: want %s", strings.TrimSpace(k), want)
		}
		w, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(w >= 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("probability %q of %g: want a finite number ≥ 0", strings.TrimSpace(v), n)
		}
		es = append(es, entry{n, w})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(a.v, b.v) })
	p := &pmf{}
	total := 0.0
	for _, e := range es {
		total += e.w
		value(e.v)
		p.cum = append(p.cum, total)
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return nil, fmt.Errorf("probabilities sum to %g: want a positive finite sum", total)
	}
	return p, nil
}

// lengthBlock is a ServeGen dataset's length laws from a start time on:
// the input (a language model's input_tokens, or the sum of a multimodal
// model's text, image, audio and video tokens), the output, and for a
// reasoning model the share of the output that is reasoning.
type lengthBlock struct {
	from   time.Duration
	in     []*pmf // summed
	out    *pmf
	reason *ratios // nil: no reasoning
	// images and imageCount are a multimodal model's image tokens and
	// images per request, kept apart from the input; nil: none.
	images, imageCount *pmf
}

// servegenLengths are a client's length laws, by block start.
type servegenLengths []lengthBlock

// servegenInputs are the keys of a dataset block whose draws, summed, are
// a request's input: a language model's input_tokens, or a multimodal
// model's tokens of its text, audio and video; its image tokens
// (image_tokens, with image_count) are the request's images.
var servegenInputs = []string{"input_tokens", "text_tokens", "audio_tokens", "video_tokens"}

// parseServeGenLengths reads a ServeGen dataset JSON: an object keyed by
// block start in seconds ("0", "21600", …), each holding PMFs as Python
// dict strings: the input (input_tokens, or text_tokens, audio_tokens and
// video_tokens, whose draws add up), output_tokens, optionally
// reason_ratio, and a multimodal model's image_tokens and image_count,
// its images (other keys are ignored).
// Blocks without an input or output PMF are left out: the blocks around
// them stand in.
func parseServeGenLengths(r io.Reader) (servegenLengths, error) {
	var raw map[string]map[string]json.RawMessage
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("servegen lengths: %w", err)
	}
	var ls servegenLengths
	for key, block := range raw {
		sec, err := strconv.ParseFloat(key, 64)
		if err != nil {
			return nil, fmt.Errorf("servegen lengths: block %q: want a start in seconds", key)
		}
		from, err := seconds(sec)
		if err != nil {
			return nil, fmt.Errorf("servegen lengths: block %q: %w", key, err)
		}
		b, err := parseBlock(block)
		if err != nil {
			return nil, fmt.Errorf("servegen lengths: block %s: %w", key, err)
		}
		if len(b.in) > 0 && b.out != nil {
			b.from = from
			ls = append(ls, b)
		}
	}
	slices.SortFunc(ls, func(a, b lengthBlock) int { return cmp.Compare(a.from, b.from) })
	return ls, nil
}

// parseBlock reads one block's PMFs.
func parseBlock(block map[string]json.RawMessage) (lengthBlock, error) {
	var b lengthBlock
	str := func(name string) (string, error) {
		var s string
		if err := json.Unmarshal(block[name], &s); err != nil && block[name] != nil {
			return "", fmt.Errorf("%s: want a string", name)
		}
		return s, nil
	}
	for _, name := range append(slices.Clone(servegenInputs), "output_tokens", "image_tokens", "image_count") {
		s, err := str(name)
		if err != nil {
			return b, err
		}
		p, err := parsePyDict(s)
		if s != "" && err != nil {
			return b, fmt.Errorf("%s: %w", name, err)
		}
		switch {
		case p == nil:
		case name == "output_tokens":
			b.out = p
		case name == "image_tokens":
			b.images = p
		case name == "image_count":
			b.imageCount = p
		default:
			b.in = append(b.in, p)
		}
	}
	s, err := str("reason_ratio")
	if err != nil {
		return b, err
	}
	if b.reason, err = parseRatios(s); s != "" && err != nil {
		return b, fmt.Errorf("reason_ratio: %w", err)
	}
	return b, nil
}

// draw draws a request's input, output and reasoning tokens and its
// images' tokens and count from the block, in that order: each input
// part, the images, the output, then the reasoning share.
func (b *lengthBlock) draw(r *rand.Rand) (in, out, reasoning, imageTokens, images int) {
	for _, p := range b.in {
		in += p.sample(r)
	}
	if b.images != nil {
		imageTokens, images = b.images.sample(r), 1
		if b.imageCount != nil {
			images = b.imageCount.sample(r)
		}
	}
	out = b.out.sample(r)
	if b.reason != nil {
		reasoning = int(math.Round(b.reason.sample(r) * float64(out)))
	}
	return in, out, reasoning, imageTokens, images
}

// at returns the laws in force at offset t: the last block starting at or
// before t, or the first block when t is before them all; nil without
// blocks.
func (ls servegenLengths) at(t time.Duration) *lengthBlock {
	if len(ls) == 0 {
		return nil
	}
	i := sort.Search(len(ls), func(i int) bool { return ls[i].from > t })
	return &ls[max(i-1, 0)]
}
