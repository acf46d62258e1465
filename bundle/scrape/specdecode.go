package scrape

import (
	"maps"
	"math"
	"slices"
	"strconv"

	"surge/metrics"
)

// The series SpecDecode reads.
const (
	vllmDrafts      = "vllm:spec_decode_num_drafts"
	vllmDraftTokens = "vllm:spec_decode_num_draft_tokens"
	vllmAccepted    = "vllm:spec_decode_num_accepted_tokens"
	vllmPerPosition = "vllm:spec_decode_num_accepted_tokens_per_pos"
	sglangRate      = "sglang:spec_accept_rate"
	sglangLength    = "sglang:spec_accept_length"
)

// SpecDecode returns the server's speculative decoding between fromUS
// and toUS (the scrapes that bracket the window, as HistogramQuantiles
// takes them), and false when it exports none or drafted nothing in the
// window: a server without speculative decoding.
func (s *Series) SpecDecode(fromUS, toUS int64) (metrics.SpecDecode, bool) {
	ok := s.OK()
	if len(ok) == 0 || toUS < fromUS {
		return metrics.SpecDecode{}, false
	}
	a, b := bracket(ok, fromUS, toUS)
	present := s.names("")
	if first(present, vllmDraftTokens) != "" && first(present, vllmAccepted) != "" {
		return vllmSpecDecode(present, ok[a], ok[b])
	}
	if rate := first(present, sglangRate); rate != "" {
		return sglangSpecDecode(rate, first(present, sglangLength), ok[a:b+1])
	}
	return metrics.SpecDecode{}, false
}

// vllmSpecDecode differences vLLM's counters, of the present names,
// between scrapes a and b.
func vllmSpecDecode(present map[string]bool, a, b Scrape) (metrics.SpecDecode, bool) {
	grew := func(family string) float64 {
		name := first(present, family)
		return increase(values(a, name), values(b, name))
	}
	drafts := grew(vllmDrafts)
	var perPos []float64
	if drafts > 0 {
		perPos = perPosition(first(present, vllmPerPosition), a, b)
	}
	return metrics.SpecDecodeOf("vLLM spec_decode counters", a.AtUS, b.AtUS,
		drafts, grew(vllmDraftTokens), grew(vllmAccepted), perPos)
}

// perPosition is the tokens accepted at each draft position between
// scrapes a and b: the per-position counter name's increase.
func perPosition(name string, a, b Scrape) []float64 {
	byPos := map[int]float64{}
	for _, sc := range []struct {
		scrape Scrape
		sign   float64
	}{{b, 1}, {a, -1}} {
		for _, smp := range sc.scrape.Samples {
			pos, err := strconv.Atoi(smp.Labels["position"])
			if name != "" && smp.Name == name && smp.Value != nil && err == nil && pos >= 0 && pos < maxDraftPositions {
				byPos[pos] += sc.sign * float64(*smp.Value)
			}
		}
	}
	var out []float64
	for _, pos := range slices.Sorted(maps.Keys(byPos)) {
		for len(out) < pos {
			out = append(out, 0)
		}
		out = append(out, max(byPos[pos], 0))
	}
	return out
}

// maxDraftPositions bounds the positions read: a server that labels a
// millionth position is not believed.
const maxDraftPositions = 64

// sglangSpecDecode averages SGLang's gauges, rate and length (""
// when absent), over the window's scrapes.
func sglangSpecDecode(rateName, lengthName string, window []Scrape) (metrics.SpecDecode, bool) {
	var rate, length, nRate, nLength float64
	for _, sc := range window {
		if v := mean(sc, rateName); !math.IsNaN(v) {
			rate, nRate = rate+v, nRate+1
		}
		if v := mean(sc, lengthName); lengthName != "" && !math.IsNaN(v) {
			length, nLength = length+v, nLength+1
		}
	}
	if nRate == 0 || !(rate > 0) {
		return metrics.SpecDecode{}, false
	}
	d := metrics.SpecDecode{Source: "SGLang spec_accept gauges", FromUS: window[0].AtUS, ToUS: window[len(window)-1].AtUS,
		AcceptanceRate: rate / nRate}
	if nLength > 0 {
		d.AcceptLength = length / nLength
	}
	return d, true
}
