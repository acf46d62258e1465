package scrape

import (
	"math"
	"testing"
)

func gauge(name string, labels map[string]string, v float64) Sample {
	f := Float(v)
	return Sample{Name: name, Type: "gauge", Labels: labels, Value: &f}
}

func counter(name string, labels map[string]string, v float64) Sample {
	s := gauge(name, labels, v)
	s.Type = "counter"
	return s
}

// same reports a == b, treating NaN as equal to NaN.
func same(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-12
}

func TestStateFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file                 string
		running, waiting, kv float64
		hit                  float64
		reason               string
	}{
		{"vllm.txt", 25, 3, 0.375, math.NaN(),
			"two DP engines: 14+11 running, 3+0 waiting, KV (0.4375+0.3125)/2; hit rate needs two scrapes"},
		{"sglang.txt", 37, 5, 0.62, math.NaN(),
			"SGLang names; cached_tokens and prompt_tokens counters win over the cache_hit_rate gauge"},
		{"llamacpp.txt", 2, 1, math.NaN(), math.NaN(),
			"llama-server: requests_processing and requests_deferred; no KV-cache gauge, no prefix-cache counters"},
	}
	for _, tt := range tests {
		s := &Series{Scrapes: []Scrape{{AtUS: 7, Samples: fixture(t, tt.file)}}}
		st := s.State()
		if len(st) != 1 {
			t.Fatalf("%s: %d states, want 1", tt.file, len(st))
		}
		g := st[0]
		if g.AtUS != 7 || !same(g.Running, tt.running) || !same(g.Waiting, tt.waiting) || !same(g.KVUsage, tt.kv) || !same(g.PrefixHitRate, tt.hit) {
			t.Errorf("%s: %+v, want running %v waiting %v kv %v hit %v (%s)", tt.file, g, tt.running, tt.waiting, tt.kv, tt.hit, tt.reason)
		}
	}
}

func TestStatePrefixHitRate(t *testing.T) {
	t.Parallel()
	m0, m1 := map[string]string{"model_name": "a"}, map[string]string{"model_name": "b"}
	vllm := func(at int64, h0, q0, h1, q1 float64) Scrape {
		return Scrape{AtUS: at, Samples: []Sample{
			counter("vllm:prefix_cache_hits_total", m0, h0), counter("vllm:prefix_cache_hits_total", m1, h1),
			counter("vllm:prefix_cache_queries_total", m0, q0), counter("vllm:prefix_cache_queries_total", m1, q1),
			gauge("vllm:num_requests_running", m0, 2), gauge("vllm:num_requests_running", m1, 3),
		}}
	}
	s := &Series{Scrapes: []Scrape{
		vllm(0, 100, 200, 0, 0),
		vllm(10, 150, 300, 30, 100),  // (50+30)/(100+100)
		{AtUS: 15, Error: "refused"}, // skipped
		vllm(20, 150, 300, 30, 100),  // nothing queried
		vllm(30, 20, 40, 40, 110),    // model a restarted: 20/40 whole; b 10/10
		{AtUS: 40, Samples: []Sample{gauge("sglang:num_running_reqs", nil, 1)}}, // vLLM names vanished
	}}
	want := []struct {
		at           int64
		running, hit float64
		reason       string
	}{
		{0, 5, math.NaN(), "first scrape: no interval yet; running summed over two models"},
		{10, 5, 0.4, "Δhits 80 over Δqueries 200, summed over models"},
		{20, 5, math.NaN(), "no prompt tokens queried: no rate"},
		{30, 5, 30.0 / 50, "a counter that went down was reset: its value is its increase"},
		{40, math.NaN(), math.NaN(), "the chosen engine's names absent at this scrape"},
	}
	got := s.State()
	if len(got) != len(want) {
		t.Fatalf("%d states, want %d (failed scrape skipped)", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.AtUS != w.at || !same(g.Running, w.running) || !same(g.PrefixHitRate, w.hit) || !math.IsNaN(g.KVUsage) {
			t.Errorf("state %d = %+v, want at %d running %v hit %v, KV NaN (%s)", i, g, w.at, w.running, w.hit, w.reason)
		}
	}
}

func TestStateHitGauge(t *testing.T) {
	t.Parallel()
	s := &Series{Scrapes: []Scrape{{AtUS: 1, Samples: []Sample{
		gauge("sglang:cache_hit_rate", map[string]string{"dp": "0"}, 0.2),
		gauge("sglang:cache_hit_rate", map[string]string{"dp": "1"}, 0.4),
	}}}}
	if st := s.State(); len(st) != 1 || !same(st[0].PrefixHitRate, 0.3) {
		t.Errorf("State = %+v, want the hit-rate gauge averaged, 0.3, without counters", st)
	}
}

// TestStateKeepsLlamaCpp: every series of llama-server's /metrics is
// kept by the default filter.
func TestStateKeepsLlamaCpp(t *testing.T) {
	t.Parallel()
	got := familyNames(fixture(t, "llamacpp.txt"))
	if len(got) != 11 {
		t.Errorf("kept %d llama.cpp families %v, want all 11", len(got), got)
	}
}
