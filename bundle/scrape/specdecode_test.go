package scrape

import (
	"math"
	"slices"
	"testing"

	"surge/metrics"
)

// TestSpecDecode: vLLM's counters are differenced over the window (two
// engines summed, the per-position counter by position), SGLang's gauges
// averaged over it; a server without speculative decoding, or one that
// drafted nothing in the window, has none.
func TestSpecDecode(t *testing.T) {
	t.Parallel()
	e0, e1 := map[string]string{"engine": "0"}, map[string]string{"engine": "1"}
	pos := func(engine map[string]string, p string, v float64) Sample {
		l := map[string]string{"engine": engine["engine"], "position": p}
		return counter("vllm:spec_decode_num_accepted_tokens_per_pos_total", l, v)
	}
	vllm := func(at int64, drafts, tokens, accepted, p0, p1 float64) Scrape {
		return Scrape{AtUS: at, Samples: []Sample{
			counter("vllm:spec_decode_num_drafts_total", e0, drafts/2), counter("vllm:spec_decode_num_drafts_total", e1, drafts/2),
			counter("vllm:spec_decode_num_draft_tokens_total", e0, tokens/2), counter("vllm:spec_decode_num_draft_tokens_total", e1, tokens/2),
			counter("vllm:spec_decode_num_accepted_tokens_total", e0, accepted/2), counter("vllm:spec_decode_num_accepted_tokens_total", e1, accepted/2),
			pos(e0, "0", p0/2), pos(e1, "0", p0/2), pos(e0, "1", p1/2), pos(e1, "1", p1/2),
		}}
	}
	sglang := func(at int64, rate, length float64) Scrape {
		return Scrape{AtUS: at, Samples: []Sample{gauge("sglang:spec_accept_rate", nil, rate), gauge("sglang:spec_accept_length", nil, length)}}
	}
	tests := []struct {
		reason   string
		scrapes  []Scrape
		from, to int64
		want     metrics.SpecDecode
		ok       bool
	}{
		{"vLLM: 100 drafts of 2 tokens over the window, 150 accepted",
			[]Scrape{vllm(0, 10, 20, 15, 9, 6), vllm(1e6, 10, 20, 15, 9, 6), vllm(2e6, 110, 220, 165, 99, 66)}, 1e6, 2e6,
			metrics.SpecDecode{Source: "vLLM spec_decode counters", FromUS: 1e6, ToUS: 2e6, Drafts: 100, DraftTokens: 200, Accepted: 150,
				AcceptanceRate: 0.75, AcceptLength: 2.5, PerPosition: []float64{0.9, 0.6}}, true},
		{"vLLM: nothing drafted in the window", []Scrape{vllm(0, 10, 20, 15, 9, 6), vllm(1e6, 10, 20, 15, 9, 6)}, 0, 1e6, metrics.SpecDecode{}, false},
		{"SGLang: the gauges' mean over the window's scrapes",
			[]Scrape{sglang(0, 0.2, 1.5), sglang(1e6, 0.6, 2.5), sglang(2e6, 0.8, 3.5), sglang(3e6, 0.1, 1.0)}, 1e6, 2e6,
			metrics.SpecDecode{Source: "SGLang spec_accept gauges", FromUS: 1e6, ToUS: 2e6, AcceptanceRate: 0.7, AcceptLength: 3}, true},
		{"no speculative decoding", []Scrape{{AtUS: 0, Samples: []Sample{gauge("vllm:num_requests_running", nil, 3)}}}, 0, 1, metrics.SpecDecode{}, false},
		{"no scrape", nil, 0, 1, metrics.SpecDecode{}, false},
	}
	for _, tt := range tests {
		got, ok := (&Series{Scrapes: tt.scrapes}).SpecDecode(tt.from, tt.to)
		if ok != tt.ok || got.Source != tt.want.Source || got.FromUS != tt.want.FromUS || got.ToUS != tt.want.ToUS ||
			got.Drafts != tt.want.Drafts || got.DraftTokens != tt.want.DraftTokens || got.Accepted != tt.want.Accepted ||
			!same(got.AcceptanceRate, tt.want.AcceptanceRate) || !same(got.AcceptLength, tt.want.AcceptLength) ||
			!slices.EqualFunc(got.PerPosition, tt.want.PerPosition, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }) {
			t.Errorf("%s:\n got %+v, %v\nwant %+v, %v", tt.reason, got, ok, tt.want, tt.ok)
		}
	}
}
