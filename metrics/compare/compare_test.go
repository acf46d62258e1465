package compare

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"surge/trace"
)

// synth are the parameters of a synthetic run.
type synth struct {
	seed      uint64
	n         int     // measured requests
	slow      float64 // latency factor: 1.2 is 20% slower
	failRate  float64 // share of requests that fail
	rate      float64 // arrivals per second
	reasoning bool    // TTFO after TTFT
}

// records builds a synthetic run: Poisson arrivals at s.rate, lognormal
// TTFT (median 50 ms) and per-token gaps (median 10 ms), 50–300 output
// tokens, and a small random send lag; every latency times s.slow.
func records(s synth) *trace.Records {
	rng := rand.New(rand.NewPCG(s.seed, 99))
	rs := &trace.Records{Header: trace.RunHeader{WorkloadHash: "sha256:w", SpecHash: "sha256:s", Target: "sim://x", Tool: "surge test"}}
	rs.End = &trace.RunEnd{}
	rate := s.rate
	if rate == 0 {
		rate = 4
	}
	at := 0.0
	for i := range s.n + 20 {
		at += rng.ExpFloat64() / rate * 1e6
		r := trace.Record{Client: "c", Session: i, IntendedUS: int64(at), Warmup: i < 20}
		r.SentUS = r.IntendedUS + int64(rng.ExpFloat64()*200)
		if rng.Float64() < s.failRate {
			r.ErrorClass, r.E2EUS = trace.ErrHTTP, 1000
			rs.Records = append(rs.Records, r)
			continue
		}
		r.TTFTUS = int64(50_000 * s.slow * math.Exp(0.5*rng.NormFloat64()))
		r.TTFOUS = r.TTFTUS
		if s.reasoning {
			r.TTFOUS += int64(rng.ExpFloat64() * 100_000)
		}
		tokens, tpot := 50+rng.IntN(251), 10_000*s.slow*math.Exp(0.2*rng.NormFloat64())
		r.ITLUS = make([]int64, tokens-1)
		r.E2EUS = r.TTFTUS
		for j := range r.ITLUS {
			r.ITLUS[j] = int64(tpot * (0.5 + rng.Float64()))
			r.E2EUS += r.ITLUS[j]
		}
		r.OutputTokens, r.ServerOutputTokens, r.Chunks = tokens, tokens, tokens
		rs.Records = append(rs.Records, r)
	}
	return rs
}

// latencyNames are the latency metrics of a run without reasoning.
var latencyNames = []string{"ttft", "itl", "tpot", "e2e", "ttft+lag", "e2e+lag"}

func TestCompareIdenticalRuns(t *testing.T) {
	t.Parallel()
	rs := records(synth{seed: 1, n: 500, slow: 1})
	res, err := Compare(rs, records(synth{seed: 1, n: 500, slow: 1}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4*len(latencyNames)+3 {
		t.Errorf("%d rows, want %d", len(res.Rows), 4*len(latencyNames)+3)
	}
	for _, r := range res.Rows {
		if r.Significant || r.Delta != 0 || !r.Tested || r.P != 1 {
			t.Errorf("%s of identical runs: delta %g, p %g, significant %v", r.Name(), r.Delta, r.P, r.Significant)
		}
	}
	if len(res.Warnings) != 0 || res.DifferentWorkload {
		t.Errorf("warnings %q, different workload %v", res.Warnings, res.DifferentWorkload)
	}
}

// TestCompareSameDistribution: independent runs of one distribution
// (20 fixed seeds) are flagged on few rows: at most 5% of the latency
// rows, and no seed flags more than a quarter of its rows.
func TestCompareSameDistribution(t *testing.T) {
	t.Parallel()
	flagged, rows := 0, 0
	for seed := uint64(100); seed < 120; seed++ {
		res, err := Compare(records(synth{seed: seed, n: 400, slow: 1}), records(synth{seed: seed + 1000, n: 400, slow: 1}), Options{Resamples: 500})
		if err != nil {
			t.Fatal(err)
		}
		f := 0
		for _, r := range res.Rows {
			if r.Unit == "us" || r.Unit == "us/token" {
				rows++
				if r.Significant {
					f++
				}
			}
		}
		if f > 6 {
			t.Errorf("seed %d: %d of 24 latency rows significant", seed, f)
		}
		flagged += f
	}
	if float64(flagged) > 0.05*float64(rows) {
		t.Errorf("%d of %d latency rows of one distribution were significant", flagged, rows)
	}
}

func TestCompareSlowerCandidate(t *testing.T) {
	t.Parallel()
	gates, err := ParseGates("ttft.p99:+10%,e2e.p50:+10%,e2e.mean:+30%,output_throughput:-5%,error_rate:+1%")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compare(records(synth{seed: 1, n: 1000, slow: 1}), records(synth{seed: 2, n: 1000, slow: 1.2}), Options{Gates: gates})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range latencyNames {
		for _, st := range latencyStats {
			r := res.Row(name + "." + st.name)
			if r == nil || !r.Significant || r.Delta < 0.08 || r.Delta > 0.35 || r.CI.Lo <= 0 {
				t.Errorf("%s.%s of a 20%% slower run: %+v", name, st.name, r)
			}
		}
	}
	want := map[string]Verdict{
		"ttft.p99:+10%": VerdictFail, "e2e.p50:+10%": VerdictFail, "e2e.mean:+30%": VerdictPass,
		"output_throughput:-5%": VerdictPass, "error_rate:+1%": VerdictPass,
	}
	for _, g := range res.Gates {
		if g.Verdict != want[g.Gate.String()] {
			t.Errorf("gate %s: %s (%s), want %s", g.Gate, g.Verdict, g.Reason, want[g.Gate.String()])
		}
	}
	if len(res.Failed()) != 2 {
		t.Errorf("%d failed gates, want 2", len(res.Failed()))
	}
}

func TestCompareThroughputAndErrors(t *testing.T) {
	t.Parallel()
	gates, _ := ParseGates("output_throughput:-5%,request_throughput:-5%,error_rate:+1%")
	base := records(synth{seed: 1, n: 1500, slow: 1, rate: 10})
	cand := records(synth{seed: 2, n: 1500, slow: 1, rate: 7, failRate: 0.05})
	res, err := Compare(base, cand, Options{Gates: gates})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"request_throughput", "output_throughput"} {
		r := res.Row(name)
		// 7/s of which 95% succeed, against 10/s: −33%.
		if r == nil || !r.Significant || r.NBase != DefaultWindows || math.Abs(r.Delta+0.335) > 0.06 {
			t.Errorf("%s: %+v", name, r)
		}
	}
	e := res.Row("error_rate")
	if e == nil || !e.Significant || !e.Absolute || e.Base != 0 || math.Abs(e.Delta-0.05) > 0.015 || e.CI.Lo <= 0 {
		t.Errorf("error_rate: %+v", e)
	}
	if len(res.Failed()) != 3 {
		t.Errorf("gates %+v: want all three failed", res.Gates)
	}
}

// TestWindowRatesMeanIsTheRunRate checks the identity the throughput
// rows rest on.
func TestWindowRatesMeanIsTheRunRate(t *testing.T) {
	t.Parallel()
	rs := records(synth{seed: 5, n: 300, slow: 1, failRate: 0.1})
	res, err := Compare(rs, rs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for _, r := range rs.Records {
		if succeeded(&r) {
			ok++
		}
	}
	want := float64(ok) / res.Base.Window.Seconds()
	if got := res.Row("request_throughput").Base; math.Abs(got-want) > 1e-9*want {
		t.Errorf("mean of window rates %g, run rate %g", got, want)
	}
}

func TestCompareWorkloadCheck(t *testing.T) {
	t.Parallel()
	base, cand := records(synth{seed: 1, n: 50, slow: 1}), records(synth{seed: 2, n: 50, slow: 1})
	cand.Header.WorkloadHash, cand.Header.Target = "sha256:other", "http://elsewhere"
	if _, err := Compare(base, cand, Options{}); !errors.Is(err, ErrDifferentWorkload) || !strings.Contains(err.Error(), "sha256:other") {
		t.Errorf("different workloads: error %v", err)
	}
	res, err := Compare(base, cand, Options{AllowDifferentWorkload: true})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Warnings, "\n")
	if !res.DifferentWorkload || !strings.Contains(all, "different workloads") || !strings.Contains(all, "targets differ") {
		t.Errorf("allowed: different %v, warnings %q", res.DifferentWorkload, res.Warnings)
	}
}

func TestCompareSmallSamples(t *testing.T) {
	t.Parallel()
	gates, _ := ParseGates("ttft.p99:+10%,ttft.p50:+10%,ttfo.p50:+10%")
	res, err := Compare(records(synth{seed: 1, n: 100, slow: 1}), records(synth{seed: 2, n: 100, slow: 2}), Options{Gates: gates})
	if err != nil {
		t.Fatal(err)
	}
	p99 := res.Row("ttft.p99")
	if p99.CI != nil || p99.Significant || !strings.Contains(p99.Note, "n ≥ 368") {
		t.Errorf("p99 of 100 values: %+v", p99)
	}
	// The p99 has no interval of its own, but it doubled while the rank
	// test finds the whole distributions apart: its gate fails. No ttfo
	// row without reasoning: that gate is unjudged.
	want := []Verdict{VerdictFail, VerdictFail, VerdictUnjudged}
	for i, g := range res.Gates {
		if g.Verdict != want[i] {
			t.Errorf("gate %s: %s (%s), want %s", g.Gate, g.Verdict, g.Reason, want[i])
		}
	}
}

func TestCompareReasoningAddsTTFO(t *testing.T) {
	t.Parallel()
	res, err := Compare(records(synth{seed: 1, n: 50, slow: 1, reasoning: true}), records(synth{seed: 2, n: 50, slow: 1}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Row("ttfo.p50") == nil || res.Row("ttfo+lag.mean") == nil {
		t.Error("no TTFO rows for a reasoning run")
	}
}

func TestCompareEmptyCandidate(t *testing.T) {
	t.Parallel()
	gates, _ := ParseGates("ttft.p50:+10%")
	cand := records(synth{seed: 2, n: 50, slow: 1, failRate: 1})
	res, err := Compare(records(synth{seed: 1, n: 50, slow: 1}), cand, Options{Gates: gates})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Row("ttft.p50"); r.Comparable || !strings.Contains(r.Note, "no values in the candidate") {
		t.Errorf("ttft.p50 without candidate values: %+v", r)
	}
	if e := res.Row("error_rate"); e.Candidate != 1 || !e.Significant {
		t.Errorf("error_rate of a run that always failed: %+v", e)
	}
	if g := res.Gates[0]; g.Verdict != VerdictUnjudged {
		t.Errorf("a latency gate without candidate values: %+v", g)
	}
}

// TestOptionsCheck checks that a zero option takes its default and that
// each option out of range is refused, naming surge compare's flag.
func TestOptionsCheck(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts Options
		want string // "" for no error
	}{
		{"zero", Options{}, ""},
		{"a level", Options{Alpha: 0.01, Resamples: 10, Windows: 2}, ""},
		{"alpha 1", Options{Alpha: 1}, "--alpha 1: want a level in (0, 1)"},
		{"alpha 5", Options{Alpha: 5}, "--alpha 5: want a level in (0, 1)"},
		{"negative alpha", Options{Alpha: -0.05}, "--alpha -0.05"},
		{"NaN alpha", Options{Alpha: math.NaN()}, "--alpha NaN"},
		{"negative resamples", Options{Resamples: -1}, "resamples -1: want 1 or more"},
		{"one window", Options{Windows: 1}, "windows 1: want 2 or more"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opts.Check()
			if tt.want == "" {
				if err != nil {
					t.Errorf("Check() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCompareOptionErrors(t *testing.T) {
	t.Parallel()
	rs := records(synth{seed: 1, n: 10, slow: 1})
	_, err := Compare(rs, rs, Options{Alpha: 1.5, Resamples: -1, Windows: 1})
	for _, w := range []string{"alpha 1.5", "resamples -1", "windows 1"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v lacks %q", err, w)
		}
	}
}

// TestCompareEndings: each side's ending is trace.EndingOf its end line,
// and an aborted or interrupted side is warned of as such.
func TestCompareEndings(t *testing.T) {
	t.Parallel()
	base, cand := records(synth{seed: 1, n: 100, slow: 1}), records(synth{seed: 2, n: 100, slow: 1})
	base.End = &trace.RunEnd{Interrupted: true, Aborted: "20 of the first 20 requests failed"}
	cand.End = &trace.RunEnd{Interrupted: true}
	res, err := Compare(base, cand, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Base.Ending != trace.EndAborted || res.Candidate.Ending != trace.EndInterrupted || !res.Base.Interrupted {
		t.Errorf("endings %v, %v (base interrupted %v); want aborted, interrupted", res.Base.Ending, res.Candidate.Ending, res.Base.Interrupted)
	}
	all := strings.Join(res.Warnings, "\n")
	for _, want := range []string{"the base run aborted itself on its errors", "the candidate run was interrupted or did not finish"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q lack %q", res.Warnings, want)
		}
	}
}
