package spec

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"surge/arrival"
)

func TestBench(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	tests := []struct {
		reason string
		opts   BenchOptions
		// want, the resolved spec's fields
		requests, concurrency int
		process               arrival.Process
		rate, cv              float64
		input, output, api    string
		exact                 bool
	}{
		{"the zero value is vllm's defaults: 1000 prompts, 1024 in, 128 out, all at once, completions",
			BenchOptions{Model: "m"}, 1000, 1000, "", 0, 0, "fixed(value=1024)", "fixed(value=128)", "completions", false},
		{"an infinite rate with --max-concurrency is a closed loop of that many",
			BenchOptions{Model: "m", RequestRate: inf, MaxConcurrency: 8, NumPrompts: 50}, 50, 8, "", 0, 0, "fixed(value=1024)", "fixed(value=128)", "completions", false},
		{"a finite rate is Poisson at burstiness 1",
			BenchOptions{Model: "m", RequestRate: 10, Burstiness: 1, NumPrompts: 600, InputLen: 128, OutputLen: 16}, 600, 0, arrival.Poisson, 10, 0, "fixed(value=128)", "fixed(value=16)", "completions", false},
		{"burstiness k is gamma gaps of shape k: CV 1/√k",
			BenchOptions{Model: "m", RequestRate: 2.5, Burstiness: 0.25}, 1000, 0, arrival.Gamma, 2.5, 2, "fixed(value=1024)", "fixed(value=128)", "completions", false},
		{"a range ratio draws the whole numbers in [len(1−r), len(1+r)]; ignore-eos asks for exact outputs",
			BenchOptions{Model: "m", RequestRate: 1, RangeRatio: 0.25, IgnoreEOS: true, API: "chat"}, 1000, 0, arrival.Poisson, 1, 0, "uniform(min=767.5,max=1280.5)", "uniform(min=95.5,max=160.5)", "chat", true},
		{"a ratio widens a length of 1 to 1 or 2: vllm's floor and ceiling, at least 1 token",
			BenchOptions{Model: "m", InputLen: 1, OutputLen: 1, RangeRatio: 0.1}, 1000, 1000, "", 0, 0, "uniform(min=0.5,max=2.5)", "uniform(min=0.5,max=2.5)", "completions", false},
		{"embeddings: one input of the input length per request, no output",
			BenchOptions{Model: "m", API: "embeddings", InputLen: 256, OutputLen: 9}, 1000, 1000, "", 0, 0, "fixed(value=256)", "", "embeddings", false},
		{"rerank: a query and 8 documents of the input length per request, no output",
			BenchOptions{Model: "m", API: "rerank", InputLen: 64, OutputLen: 9}, 1000, 1000, "", 0, 0, "fixed(value=64)", "", "rerank", false},
		{"score as rerank",
			BenchOptions{Model: "m", API: "score", InputLen: 32, RangeRatio: 0.5}, 1000, 1000, "", 0, 0, "uniform(min=15.5,max=48.5)", "", "score", false},
	}
	for _, tt := range tests {
		s, err := Bench(tt.opts)
		if err != nil {
			t.Errorf("%s: Bench: %v", tt.reason, err)
			continue
		}
		c := s.Clients[0]
		output := ""
		if c.Output != nil {
			output = c.Output.String()
		}
		got := []any{s.Requests, c.Concurrency, c.Arrival.Process, c.Arrival.Rate, c.Input.String(), output, c.API, c.Sampling.ExactOutput}
		want := []any{tt.requests, tt.concurrency, tt.process, tt.rate, tt.input, tt.output, tt.api, tt.exact}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: got %v, want %v", tt.reason, got, want)
				break
			}
		}
		if scored := c.Documents != nil && c.Document != nil; scored != (tt.api == "rerank" || tt.api == "score") ||
			scored && (c.Documents.String() != "fixed(value=8)" || c.Document.String() != c.Input.String()) {
			t.Errorf("%s: documents %v of %v", tt.reason, c.Documents, c.Document)
		}
		if math.Abs(c.Arrival.CV-tt.cv) > 1e-12 {
			t.Errorf("%s: cv %g, want %g", tt.reason, c.Arrival.CV, tt.cv)
		}
		if s.Warmup != 0 || c.Model != "m" || s.Tokenizer != "o200k_base" {
			t.Errorf("%s: warmup %v, model %q, tokenizer %q: want 0, m, o200k_base", tt.reason, s.Warmup, c.Model, s.Tokenizer)
		}
		// The canonical form is a spec file of the same workload.
		again, err := Parse("printed.yaml", s.Canonical())
		if err != nil {
			t.Errorf("%s: the canonical form does not parse: %v", tt.reason, err)
		} else if !bytes.Equal(again.Canonical(), s.Canonical()) {
			t.Errorf("%s: the canonical form reads back differently:\n%s\n%s", tt.reason, s.Canonical(), again.Canonical())
		}
	}
}

func TestBenchCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		opts BenchOptions
		want string // in the error; "" for none
	}{
		{BenchOptions{Model: "m", PercentileMetrics: "ttft,tpot,itl,e2el", MetricPercentiles: "50, 99,99.9"}, ""},
		{BenchOptions{}, "--model"},
		{BenchOptions{Model: "m", API: "classify"}, "--api"},
		{BenchOptions{Model: "m", InputLen: -1}, "--random-input-len -1"},
		{BenchOptions{Model: "m", OutputLen: MaxLength + 1}, "--random-output-len"},
		{BenchOptions{Model: "m", RangeRatio: 1}, "--random-range-ratio 1: want a ratio in [0, 1)"},
		{BenchOptions{Model: "m", RangeRatio: math.NaN()}, "--random-range-ratio"},
		{BenchOptions{Model: "m", RequestRate: -1}, "--request-rate -1"},
		{BenchOptions{Model: "m", RequestRate: math.NaN()}, "--request-rate"},
		{BenchOptions{Model: "m", Burstiness: -0.5}, "--burstiness -0.5"},
		{BenchOptions{Model: "m", Burstiness: math.Inf(1)}, "--burstiness"},
		{BenchOptions{Model: "m", NumPrompts: -3}, "--num-prompts -3"},
		{BenchOptions{Model: "m", MaxConcurrency: -1}, "--max-concurrency -1"},
		{BenchOptions{Model: "m", PercentileMetrics: "ttft,goodput"}, `unknown metric "goodput"`},
		{BenchOptions{Model: "m", MetricPercentiles: "75"}, "surge reports p50, p90, p95, p99 and p99.9 of every metric, not 75"},
		{BenchOptions{Model: "m", MetricPercentiles: "p99"}, "not p99"},
	}
	for _, tt := range tests {
		err := tt.opts.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: %v, want no error", tt.opts, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%+v: %v, want an error with %q", tt.opts, err, tt.want)
		}
		if _, berr := Bench(tt.opts); (berr == nil) != (err == nil) {
			t.Errorf("%+v: Bench %v, Check %v", tt.opts, berr, err)
		}
	}
}

// TestBenchRangeRatio checks that the lengths, rounded as the workload
// rounds them, are uniform on the whole numbers of vllm's range.
func TestBenchRangeRatio(t *testing.T) {
	t.Parallel()
	s, err := Bench(BenchOptions{Model: "m", InputLen: 10, RangeRatio: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[int]int{}
	const n = 70_000
	for range n {
		counts[int(math.Round(s.Clients[0].Input.Sample(r)))]++
	}
	if len(counts) != 7 {
		t.Fatalf("lengths %v: want each of 7 to 13", counts)
	}
	for v := 7; v <= 13; v++ {
		// 10,000 expected of each; 5 standard deviations is about ±470.
		if c := counts[v]; c < 9_500 || c > 10_500 {
			t.Errorf("length %d drawn %d times of %d, want about %d", v, c, n, n/7)
		}
	}
}
