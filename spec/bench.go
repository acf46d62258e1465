package spec

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"surge/openai"
)

// BenchOptions are the options of vllm bench serve's random dataset, in
// its vocabulary, from which Bench builds a spec: the command line's quick
// mode (surge run --random-input-len 1024 --request-rate 10 …). The zero
// value is vllm's defaults: 1000 prompts of 1024 tokens in and 128 out,
// all at once, over the completions API.
type BenchOptions struct {
	// Model is the model name sent in each request; required.
	Model string
	// API is one of openai.APIs ("": completions, as vllm's default
	// backend sends). Embeddings send one input of InputLen tokens;
	// rerank and score a query and 8 documents, each of InputLen tokens.
	API string
	// Tokenizer counts the prompts' tokens: a built-in encoding or the
	// path of a tokenizer.json ("": o200k_base).
	Tokenizer string
	// InputLen and OutputLen are the prompt and output lengths in tokens
	// (0: 1024 and 128).
	InputLen, OutputLen int
	// RangeRatio r draws each length uniformly from the whole numbers in
	// [len·(1−r), len·(1+r)], as vllm's --random-range-ratio does; 0
	// gives every request the same lengths.
	RangeRatio float64
	// RequestRate is the mean rate of requests per second; 0 or +Inf
	// sends them as fast as possible: all at once, or MaxConcurrency at a
	// time (a closed loop).
	RequestRate float64
	// Burstiness is the shape of the gamma law of the gaps between
	// requests at a finite rate (0: 1, a Poisson process); below 1
	// burstier, above 1 more even. The gaps' coefficient of variation is
	// 1/√Burstiness.
	Burstiness float64
	// NumPrompts is the number of requests (0: 1000).
	NumPrompts int
	// MaxConcurrency, at an infinite rate, is how many requests are in
	// flight at once (0: all of them). At a finite rate the run's own cap
	// on requests in flight applies it; the spec does not hold it.
	MaxConcurrency int
	// IgnoreEOS asks the server for exactly OutputLen tokens (ignore_eos
	// and min_tokens), as vllm's --ignore-eos does; otherwise max_tokens
	// caps the output and the model may stop earlier.
	IgnoreEOS bool
	// Seed seeds the lengths and prompt text.
	Seed uint64
	// PercentileMetrics and MetricPercentiles are vllm's comma-separated
	// lists of the metrics (ttft, tpot, itl, e2el) and percentiles
	// (99, 99.9) to report; "" for vllm's defaults. The report always
	// shows every metric at ReportedPercentiles, so Check accepts only
	// those and refuses others rather than leave them out silently.
	PercentileMetrics, MetricPercentiles string
}

// ReportedPercentiles are the percentiles every report shows of every
// latency (package metrics' standard ones).
var ReportedPercentiles = []float64{50, 90, 95, 99, 99.9}

// benchMetrics maps vllm's metric names to surge's.
var benchMetrics = map[string]string{"ttft": "ttft", "tpot": "tpot", "itl": "itl", "e2el": "e2e"}

// vllm bench serve's defaults.
const (
	benchInputLen   = 1024
	benchOutputLen  = 128
	benchNumPrompts = 1000
)

// benchDocuments is the documents per rerank or score request of the
// quick mode, which vllm bench serve's flags do not say.
const benchDocuments = 8

// Check reports every option out of range, each naming vllm's flag.
func (o BenchOptions) Check() error {
	var errs []error
	add := func(bad bool, format string, args ...any) {
		if bad {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	add(strings.TrimSpace(o.Model) == "", "--model: name the model to send (as the server serves it)")
	add(o.API != "" && !slices.Contains(openai.APIs(), o.API), "--api %q: want one of %s", o.API, strings.Join(openai.APIs(), ", "))
	add(o.InputLen < 0 || o.InputLen > MaxLength, "--random-input-len %d: want 1 to %d tokens", o.InputLen, MaxLength)
	add(o.OutputLen < 0 || o.OutputLen > MaxLength, "--random-output-len %d: want 1 to %d tokens", o.OutputLen, MaxLength)
	add(!(o.RangeRatio >= 0 && o.RangeRatio < 1), "--random-range-ratio %g: want a ratio in [0, 1)", o.RangeRatio)
	add(!(o.RequestRate >= 0), "--request-rate %g: want a positive rate per second, or inf", o.RequestRate)
	add(!(o.Burstiness >= 0) || math.IsInf(o.Burstiness, 0), "--burstiness %g: want a positive gamma shape (1: Poisson)", o.Burstiness)
	add(o.NumPrompts < 0 || o.NumPrompts > MaxRequests, "--num-prompts %d: want 1 to %d", o.NumPrompts, MaxRequests)
	add(o.MaxConcurrency < 0 || o.MaxConcurrency > MaxConcurrency, "--max-concurrency %d: want 0 (none) to %d", o.MaxConcurrency, MaxConcurrency)
	errs = append(errs, checkBenchMetrics(o.PercentileMetrics), checkBenchPercentiles(o.MetricPercentiles))
	return errors.Join(errs...)
}

// checkBenchMetrics refuses a metric of the list that vllm does not name.
func checkBenchMetrics(list string) error {
	for m := range strings.SplitSeq(list, ",") {
		if m = strings.TrimSpace(m); m != "" && benchMetrics[m] == "" {
			return fmt.Errorf("--percentile-metrics %q: unknown metric %q; want some of ttft, tpot, itl, e2el (the report shows all of them)", list, m)
		}
	}
	return nil
}

// checkBenchPercentiles refuses a percentile of the list that the report
// does not show.
func checkBenchPercentiles(list string) error {
	for p := range strings.SplitSeq(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || !isReported(v) {
			return fmt.Errorf("--metric-percentiles %q: surge reports p50, p90, p95, p99 and p99.9 of every metric, not %s; pick among those, or set an SLO at another percentile in a spec (--print-spec writes one)", list, p)
		}
	}
	return nil
}

// isReported reports whether p is one of ReportedPercentiles.
func isReported(p float64) bool {
	for _, q := range ReportedPercentiles {
		if p == q {
			return true
		}
	}
	return false
}

// Bench builds the spec of o, resolved as Parse resolves a file: one
// client sending NumPrompts requests, open loop at RequestRate with gamma
// (Poisson) gaps, or closed loop at MaxConcurrency when the rate is
// infinite. Its Canonical form is a spec file that runs the same workload.
func Bench(o BenchOptions) (*Spec, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	s, err := Parse("quick mode", o.yaml())
	if err != nil {
		return nil, fmt.Errorf("building the spec of the quick mode's flags: %w", err)
	}
	return s, nil
}

// yaml is the spec of o as a file would write it.
func (o BenchOptions) yaml() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nname: bench\nseed: %d\ntokenizer: %s\n", o.Seed, strconv.Quote(or(o.Tokenizer, "o200k_base")))
	fmt.Fprintf(&b, "requests: %d\nwarmup: 0s\nclients:\n  - name: random\n", orInt(o.NumPrompts, benchNumPrompts))
	fmt.Fprintf(&b, "    model: %s\n    api: %s\n", strconv.Quote(o.Model), or(o.API, "completions"))
	b.WriteString(o.load())
	fmt.Fprintf(&b, "    input: %s\n", benchLength(orInt(o.InputLen, benchInputLen), o.RangeRatio))
	if o.API == openai.APIEmbeddings {
		return []byte(b.String()) // one input per request, no output
	}
	if openai.Scores(o.API) {
		// The query and each document of the input length, no output.
		fmt.Fprintf(&b, "    documents: %d\n    document: %s\n", benchDocuments, benchLength(orInt(o.InputLen, benchInputLen), o.RangeRatio))
		return []byte(b.String())
	}
	fmt.Fprintf(&b, "    output: %s\n", benchLength(orInt(o.OutputLen, benchOutputLen), o.RangeRatio))
	fmt.Fprintf(&b, "    sampling: {max_tokens: output, exact_output: %t}\n", o.IgnoreEOS)
	return []byte(b.String())
}

// load is the client's rate and arrival, or its concurrency.
func (o BenchOptions) load() string {
	if o.RequestRate == 0 || math.IsInf(o.RequestRate, 1) {
		return fmt.Sprintf("    concurrency: %d\n", orInt(o.MaxConcurrency, orInt(o.NumPrompts, benchNumPrompts)))
	}
	rate := "    rate: " + FormatRate(o.RequestRate) + "\n"
	if o.Burstiness == 0 || o.Burstiness == 1 {
		return rate + "    arrival: {process: poisson}\n"
	}
	return rate + fmt.Sprintf("    arrival: {process: gamma, cv: %s}\n", num(1/math.Sqrt(o.Burstiness)))
}

// benchLength is a length of n tokens, or with ratio r > 0 the uniform law
// on the whole numbers from ⌊n(1−r)⌋ (at least 1) to ⌈n(1+r)⌉: a
// continuous uniform half a token wider at each end, which rounding to
// the nearest whole number makes exactly that.
func benchLength(n int, r float64) string {
	lo := max(int(math.Floor(float64(n)*(1-r))), 1)
	hi := min(int(math.Ceil(float64(n)*(1+r))), MaxLength)
	if r == 0 {
		return strconv.Itoa(n)
	}
	return strconv.Quote(fmt.Sprintf("uniform(min=%s,max=%s)", num(float64(lo)-0.5), num(float64(hi)+0.5)))
}

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// orInt returns n, or def when n is 0.
func orInt(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}
