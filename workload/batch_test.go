package workload

import (
	"math"
	"slices"
	"testing"
	"time"
)

const batchSpec = `version: 1
seed: 8
requests: 300
clients:
  - name: jobs
    model: m
    rate: 2/s
    input: {dist: lognormal, median: 60, sigma: 0.5}
    output: 30
    session: {kind: batch, size: {dist: uniform, min: 50, max: 150}, window: 90s, deadline: 30m}
    prefix: {pool: 3, length: 40}
`

// TestBatchShapes checks 300 jobs without text against the spec: sizes
// uniform on 50..150 (mean 100, standard error 29/√300 ≈ 1.7), every
// request independent, released in order within the 90 s window with
// offsets uniform over it (Kolmogorov–Smirnov distance under 0.012, the 1%
// critical value 1.63/√n for n ≈ 30,000), the job's deadline carried, and
// one system prompt per job.
func TestBatchShapes(t *testing.T) {
	t.Parallel()
	_, ss := generate(t, parse(t, batchSpec), Options{NoText: true})
	const window = 90 * time.Second
	var sizes float64
	var u []float64
	for _, s := range ss {
		sizes += float64(len(s.Turns))
		if len(s.Turns) < 50 || len(s.Turns) > 150 || s.DeadlineUS != (30*time.Minute).Microseconds() {
			t.Fatalf("job %d: %d requests, deadline %d us", s.Index, len(s.Turns), s.DeadlineUS)
		}
		for k, tu := range s.Turns {
			if tu.Parent != nil || len(tu.After) > 0 || tu.WaitUS < 0 || tu.WaitUS >= window.Microseconds() ||
				(k > 0 && tu.WaitUS < s.Turns[k-1].WaitUS) {
				t.Fatalf("job %d request %d: %+v is not independent and released in order within the window", s.Index, k, tu)
			}
			if tu.SystemID != s.Turns[0].SystemID || tu.SystemTokens != 40 || tu.InputTokens <= 40 || tu.OutputTokens != 30 {
				t.Fatalf("job %d request %d: %+v does not carry the job's system prompt", s.Index, k, tu)
			}
			u = append(u, float64(tu.WaitUS)/float64(window.Microseconds()))
		}
	}
	if m := sizes / float64(len(ss)); math.Abs(m-100) > 6 {
		t.Errorf("mean job size %.1f, want 100 ± 6", m)
	}
	if d := ksUniform(u); d > 1.63/math.Sqrt(float64(len(u))) {
		t.Errorf("release offsets are %.4f from uniform over the window (KS, n = %d)", d, len(u))
	}
}

// ksUniform returns the Kolmogorov–Smirnov distance between the sample x
// and the uniform distribution on [0, 1):
//
//	D = max_i max(i/n − x₍ᵢ₎, x₍ᵢ₎ − (i−1)/n), x sorted.
func ksUniform(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	n := float64(len(s))
	d := 0.0
	for i, v := range s {
		d = max(d, float64(i+1)/n-v, v-float64(i)/n)
	}
	return d
}

// TestBatchAllAtOnce checks a job with no window or deadline: every
// request is released at the job's start, and the trace carries no
// deadline. A closed-loop batch client's jobs start at 0 and take their
// share of the requests.
func TestBatchAllAtOnce(t *testing.T) {
	t.Parallel()
	_, ss := generate(t, parse(t, `version: 1
requests: 12
clients:
  - {name: open, model: m, rate: 1/s, input: 5, output: 5}
  - {name: jobs, model: m, concurrency: 2, input: 8, output: 4, session: {kind: batch, size: 25}}
`), Options{NoText: true})
	jobs := 0
	for _, s := range ss {
		if s.Client != "jobs" {
			continue
		}
		jobs++
		if s.AtUS != 0 || s.DeadlineUS != 0 || len(s.Turns) != 25 {
			t.Fatalf("job %d: at %d us, deadline %d us, %d requests", s.Index, s.AtUS, s.DeadlineUS, len(s.Turns))
		}
		for _, tu := range s.Turns {
			if tu.WaitUS != 0 || tu.Parent != nil || tu.InputTokens != 8 || tu.MaxTokens != 4 {
				t.Fatalf("job %d: request %+v, want 8 tokens in, 4 out, at the start", s.Index, tu)
			}
		}
	}
	if jobs != 6 {
		t.Errorf("%d jobs, want 6 (half of 12 requests by weight)", jobs)
	}
}

// TestBatchText checks that every request of a job is exact for the
// tokenizer and distinct, and that the job's system prompt is shared.
func TestBatchText(t *testing.T) {
	t.Parallel()
	tok, _ := o200k(t)
	s := parse(t, batchSpec)
	s.Requests = 3
	_, ss := generate(t, s, Options{})
	for _, x := range ss {
		prompts := map[string]bool{}
		for k, tu := range x.Turns {
			if n := len(tok.Encode(tu.Prompt)); n != tu.InputTokens-tu.SystemTokens {
				t.Fatalf("job %d request %d: prompt is %d tokens, want %d", x.Index, k, n, tu.InputTokens-tu.SystemTokens)
			}
			if tu.System != x.Turns[0].System || len(tok.Encode(tu.System)) != tu.SystemTokens {
				t.Fatalf("job %d request %d: system prompt differs from the job's or its length", x.Index, k)
			}
			prompts[tu.Prompt] = true
		}
		if len(prompts) != len(x.Turns) {
			t.Errorf("job %d: %d distinct prompts among %d requests", x.Index, len(prompts), len(x.Turns))
		}
	}
}

// TestBatchDeterminism checks that a job depends only on (seed, client,
// index) and that its --no-text twin holds the same lengths and releases.
func TestBatchDeterminism(t *testing.T) {
	t.Parallel()
	sameSessions(t, `version: 1
seed: 8
requests: 300
clients:
  - name: jobs
    model: m
    rate: 20/s
    input: {dist: lognormal, median: 60, sigma: 0.5}
    output: {dist: uniform, min: 10, max: 50}
    session: {kind: batch, size: {dist: uniform, min: 2, max: 12}, window: 5s, deadline: 1m}
`, "jobs")
}
