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
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("%q: want a dict literal {count: probability, …}", truncate([]byte(s)))
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	if body == "" {
		return nil, nil
	}
	type entry struct {
		v int
		w float64
	}
	var es []entry
	for item := range strings.SplitSeq(body, ",") {
		k, v, ok := strings.Cut(item, ":")
		if !ok {
			return nil, fmt.Errorf("entry %q: want count: probability", item)
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(k), 64)
		if err != nil || n != math.Trunc(n) || n < 0 || n > maxTokens {
			return nil, fmt.Errorf("count %q: want a whole number of tokens, 0 to %d", strings.TrimSpace(k), maxTokens)
		}
		w, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(w >= 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("probability %q of %g: want a finite number ≥ 0", strings.TrimSpace(v), n)
		}
		es = append(es, entry{int(n), w})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return a.v - b.v })
	p := &pmf{}
	total := 0.0
	for _, e := range es {
		total += e.w
		p.values, p.cum = append(p.values, e.v), append(p.cum, total)
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return nil, fmt.Errorf("probabilities sum to %g: want a positive finite sum", total)
	}
	return p, nil
}

// lengthBlock is a ServeGen dataset's length laws from a start time on.
type lengthBlock struct {
	from    time.Duration
	in, out *pmf
}

// servegenLengths are a client's length laws, by block start.
type servegenLengths []lengthBlock

// parseServeGenLengths reads a ServeGen dataset JSON: an object keyed by
// block start in seconds ("0", "21600", …), each holding input_tokens and
// output_tokens PMFs as Python dict strings (other keys, such as
// reason_ratio, are ignored). Blocks whose input or output PMF is empty
// are left out: the blocks around them stand in.
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
		b := lengthBlock{from: from}
		for name, dst := range map[string]**pmf{"input_tokens": &b.in, "output_tokens": &b.out} {
			var s string
			if err := json.Unmarshal(block[name], &s); err != nil && block[name] != nil {
				return nil, fmt.Errorf("servegen lengths: block %s: %s: want a string", key, name)
			}
			if *dst, err = parsePyDict(s); s != "" && err != nil {
				return nil, fmt.Errorf("servegen lengths: block %s: %s: %w", key, name, err)
			}
		}
		if b.in != nil && b.out != nil {
			ls = append(ls, b)
		}
	}
	slices.SortFunc(ls, func(a, b lengthBlock) int { return cmp.Compare(a.from, b.from) })
	return ls, nil
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
