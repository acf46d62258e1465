package spec

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Closest returns the candidate nearest to word, for a "did you mean"
// hint, or "" when none is near enough, by the rule of the spec's own
// hints (closest); the command line suggests its flags with it.
func Closest(word string, candidates []string) string { return closest(word, candidates) }

// closest returns the candidate nearest to word, for "did you mean" hints,
// or "" when none is near enough. Near means a case-insensitive match, an
// optimal-string-alignment distance of at most 2 that is also less than
// the candidate's length (so "ab" does not suggest "cv"), or word being a
// prefix of the candidate of at least three letters ("temp" → "temperature"),
// which ranks between no edit and one edit.
// Ties go to the earlier candidate.
func closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	// Scores are doubled distances, so that a prefix match (score 1) beats
	// one edit (score 2): "rat" suggests "rate" over "at".
	best, bestScore := "", 5
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(w, lc)
		if d >= len([]rune(c)) {
			continue
		}
		score := 2 * d
		if len(w) >= 3 && strings.HasPrefix(lc, w) {
			score = min(score, 1)
		}
		if score < bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b: the
// fewest insertions, deletions, substitutions and swaps of adjacent runes
// that turn a into b, with no substring edited twice.
//
//	d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+[a_i≠b_j],
//	              d[i-2][j-2]+1 if a_i=b_{j-1} and a_{i-1}=b_j)
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rolling rows: two back, previous, current.
	pp := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(rb)]
}

// didYouMean returns ` (did you mean "x"?)` for the closest candidate, or
// the list of valid choices when none is close.
func didYouMean(word string, candidates []string) string {
	if c := closest(word, candidates); c != "" {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	return " (valid: " + strings.Join(candidates, ", ") + ")"
}

// aliases maps names other load tools use to the spec's key. The keys of
// vLLM's and SGLang's benchmark scripts are the usual source.
var aliases = map[string]string{
	"rps":             "rate",
	"qps":             "rate",
	"request_rate":    "rate",
	"num_prompts":     "requests",
	"num_requests":    "requests",
	"max_concurrency": "concurrency",
	"isl":             "input",
	"input_len":       "input",
	"input_tokens":    "input",
	"prompt_tokens":   "input",
	"osl":             "output",
	"output_len":      "output",
	"output_tokens":   "output",
	"distribution":    "dist",
	"kind":            "dist",
	"stddev":          "sd",
	"std":             "sd",
	"style":           "prompt",
	"styles":          "content",
	"mix":             "content",
	"lang":            "language",
	"languages":       "language",
	"locale":          "language",
	"stop_sequences":  "stop",
	"output_format":   "response_format",
	"json_schema":     "response_format",
	"num_choices":     "n",
}

// elsewhere says where a key belongs when it is written at the wrong level,
// as in "(cv goes under arrival)", by the place it was found at. It is
// built once and only read.
var elsewhere = map[string]map[string]string{
	"": merged(
		where("under each client", "model", "api", "input", "output", "arrival",
			"concurrency", "prompt", "content", "language", "sampling", "weight", "images"),
		where("under slo", metrics...)),
	"client": merged(
		where("under arrival", "process", "cv", "burstiness", "stages", "ramp", "diurnal", "spikes"),
		where("under sampling", samplingKeys...),
		where("under dataset", "fit", "min_input", "max_input", "order", "field"),
		where("at the top level", "seed", "duration", "requests", "warmup", "tokenizer",
			"corpus", "clients", "slo")),
	"sampling": where("on the client, beside sampling", optionKeys...),
}

// merged returns the union of ms.
func merged(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		maps.Copy(out, m)
	}
	return out
}

// where maps each key to the same place.
func where(place string, keys ...string) map[string]string {
	m := make(map[string]string, len(keys))
	for _, k := range keys {
		m[k] = place
	}
	return m
}

// unknownKeyMsg explains an unknown key at a place whose valid keys are
// given; place selects the elsewhere table ("" top level, "client", or any
// other name for none).
func unknownKeyMsg(key string, valid []string, place string) string {
	if where, ok := elsewhere[place][key]; ok {
		return fmt.Sprintf("unknown key (%s goes %s)", key, where)
	}
	if a, ok := aliases[strings.ToLower(key)]; ok && slices.Contains(valid, a) {
		return fmt.Sprintf("unknown key (did you mean %q?)", a)
	}
	if c := closest(key, valid); c != "" {
		return fmt.Sprintf("unknown key (did you mean %q?)", c)
	}
	return "unknown key (valid keys: " + strings.Join(valid, ", ") + ")"
}
