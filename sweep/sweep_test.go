package sweep

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"surge/trace"
)

// queue is a fake server for sweeps: it serves mu requests per second.
// Below that rate a request's TTFT is base/(1 − ρ) times a noise factor
// in [0.5, 1.5); above it the queue grows and each request waits behind
// the excess of the ones before. Each point runs n requests.
type queue struct {
	mu, base float64
	n        int
	slo      []trace.SLO
	runs     []Plan
}

func (q *queue) run(ctx context.Context, p Plan) (*trace.Records, error) {
	q.runs = append(q.runs, p)
	rate := p.Load
	h := trace.RunHeader{SLO: q.slo}
	if p.Mode == Concurrency {
		rate = q.mu // closed loop: the server's own pace
		h.ClosedLoop = []string{"c"}
	}
	r := rand.New(rand.NewPCG(uint64(rate*1000), 9))
	rs := &trace.Records{Header: h, End: &trace.RunEnd{}}
	rho := rate / q.mu
	for i := range q.n {
		at := float64(i) / rate * 1e6
		ttft := q.base * (0.5 + r.Float64())
		if rho < 1 {
			ttft /= 1 - rho
		} else {
			ttft += float64(i) * (1/q.mu - 1/rate) * 1e6 // the backlog ahead
		}
		rec := trace.Record{Client: "c", Session: i, IntendedUS: int64(at), SentUS: int64(at),
			TTFTUS: int64(ttft), TTFOUS: int64(ttft), E2EUS: int64(ttft) + 100_000, OutputTokens: 10, Chunks: 10}
		rs.Records = append(rs.Records, rec)
		if p.Watch != nil {
			p.Watch.Write(&rec)
			if ctx.Err() != nil {
				break // stopped as over-saturated
			}
		}
	}
	return rs, nil
}

// TestAutoSweep runs an automatic sweep against the fake queue serving 10
// req/s: the probe finds the saturation, the points straddle it, the
// points past it are stopped early, the knee sits below saturation, and
// the SLO search brackets the rate where p99 TTFT crosses its bound.
func TestAutoSweep(t *testing.T) {
	t.Parallel()
	// p99 TTFT ≈ 50 ms · 1.49 / (1 − ρ) ≤ 500 ms ⇔ ρ ≤ 0.85: the limit
	// is near 8.5 req/s.
	q := &queue{mu: 10, base: 50_000, n: 1000, slo: []trace.SLO{{Metric: "ttft", Percentile: 99, BoundUS: 500_000}}}
	res, err := Run(context.Background(), Config{Mode: Rate, Auto: true}, q.run)
	if err != nil {
		t.Fatal(err)
	}
	if q.runs[0].Name != "saturation" || q.runs[0].Mode != Concurrency {
		t.Errorf("first run %+v, want the saturation probe", q.runs[0])
	}
	if math.Abs(res.Saturation-10) > 0.5 {
		t.Errorf("saturation %.2f req/s, want about 10", res.Saturation)
	}
	var saturated int
	for i, p := range res.Points {
		if i > 0 && p.Load <= res.Points[i-1].Load {
			t.Errorf("points not in increasing load: %g after %g", p.Load, res.Points[i-1].Load)
		}
		if p.Saturated != (p.Load > 10.05) {
			t.Errorf("%g req/s: saturated %v (%s)", p.Load, p.Saturated, p.Stopped)
		}
		if p.Saturated {
			saturated++
		}
	}
	if saturated == 0 || saturated > 2 {
		t.Errorf("%d saturated points: want the sweep to go past saturation and stop after two", saturated)
	}
	if k := res.KneeTTFT; k == nil || k.Throughput < 6 || k.Throughput > 10 {
		t.Errorf("TTFT knee %+v: want one between 6 and 10 req/s", k)
	}
	sr := res.Search
	if sr == nil || sr.MaxLoad < 7.5 || sr.MaxLoad > 9.2 || sr.CheckLoad != sr.MaxLoad*CheckFactor || sr.CheckPass {
		t.Fatalf("search %+v: want a limit near 8.5 req/s whose check 10%% higher fails", sr)
	}
	if mp := res.Points[res.MaxPassing]; mp.Load != sr.MaxLoad || !mp.SLO.Pass {
		t.Errorf("max passing point %g, search found %g", mp.Load, sr.MaxLoad)
	}
	if op := res.Operating; op == nil || math.Abs(op.Load-0.8*sr.MaxLoad) > 1e-9 || !strings.Contains(op.Basis, "SLO search") {
		t.Errorf("operating point %+v: want 20%% below %g", op, sr.MaxLoad)
	}
}

// TestExplicitSweep checks a sweep of given rates without SLOs: every
// rate runs in increasing order, there is no search, and the operating
// point comes from the knee.
func TestExplicitSweep(t *testing.T) {
	t.Parallel()
	q := &queue{mu: 10, base: 50_000, n: 600}
	var seen []float64
	cfg := Config{Mode: Rate, Loads: []float64{9.5, 2, 5, 8, 9, 12, 11}, Progress: func(p Point) { seen = append(seen, p.Load) }}
	res, err := Run(context.Background(), cfg, q.run)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{2, 5, 8, 9, 9.5, 11, 12}
	if len(seen) != len(want) {
		t.Fatalf("ran %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("ran %v, want %v", seen, want)
		}
	}
	if res.Search != nil || res.MaxPassing != -1 {
		t.Errorf("search %+v, max passing %d without SLOs", res.Search, res.MaxPassing)
	}
	if res.KneeTTFT == nil || res.Operating == nil || !strings.Contains(res.Operating.Basis, "knee") {
		t.Fatalf("knee %+v, operating %+v: want an operating point below the knee", res.KneeTTFT, res.Operating)
	}
}

func TestAutoRates(t *testing.T) {
	t.Parallel()
	got := AutoRates(10, 10)
	want := []float64{1, 2.667, 4.333, 6.5, 7.333, 8.167, 9, 9.833, 10.667, 11.5}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-3 {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// stepRun is a fake server whose runs pass a median TTFT bound of 1 s
// exactly when pass says so for their load.
func stepRun(pass func(load float64) bool) RunFunc {
	return func(ctx context.Context, p Plan) (*trace.Records, error) {
		rs := &trace.Records{Header: trace.RunHeader{SLO: []trace.SLO{{Metric: "ttft", Percentile: 50, BoundUS: 1_000_000}}}, End: &trace.RunEnd{}}
		ttft := int64(10_000)
		if !pass(p.Load) {
			ttft = 5_000_000
		}
		for i := range 500 {
			at := int64(float64(i) / p.Load * 1e6)
			rs.Records = append(rs.Records, trace.Record{IntendedUS: at, SentUS: at, TTFTUS: ttft, E2EUS: 20_000, OutputTokens: 1, Chunks: 1})
		}
		return rs, nil
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		precision float64
		pass      func(float64) bool
		max       float64
		checkPass bool
		note      string
	}{
		{"bisect to within 5%, check fails", 0, func(l float64) bool { return l <= 10 }, 10, false, "did not"},
		// 11 passes though 10.375 failed: the limit is within noise.
		{"a pass above a failure is noise", 0, func(l float64) bool { return l <= 10 || (l > 10.9 && l < 11.1) }, 10, true, "noise"},
		// A coarse bracket [10, 13]: the check at 11 lies inside it and
		// passes, so the limit rises to 11 and 12.1 is checked.
		{"a check inside the bracket raises the limit", 0.5, func(l float64) bool { return l <= 12 }, 11, false, "did not"},
		{"every load passes: climb, then give up", 0, func(float64) bool { return true }, 16 * 1.25 * 1.25 * 1.25 * 1.25, false, "sweep higher"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), Config{Mode: Rate, Loads: []float64{4, 16}, Precision: tt.precision}, stepRun(tt.pass))
		if err != nil {
			t.Fatal(err)
		}
		sr := res.Search
		if math.Abs(sr.MaxLoad-tt.max) > 1e-9 || sr.CheckPass != tt.checkPass || !strings.Contains(sr.Note, tt.note) {
			t.Errorf("%s: search %+v; want limit %g, check pass %v, a note saying %q", tt.name, sr, tt.max, tt.checkPass, tt.note)
		}
		if sr.Runs > maxSearchRuns+2 {
			t.Errorf("%s: %d search runs", tt.name, sr.Runs)
		}
	}
}

// TestInterruptedSweep checks that a sweep interrupted in its second
// point returns the error and both points, the second marked and left
// out of the knees and the passing loads.
func TestInterruptedSweep(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inner := stepRun(func(float64) bool { return true })
	run := func(pctx context.Context, p Plan) (*trace.Records, error) {
		if p.Load == 8 {
			cancel() // Ctrl-C during the second point
		}
		return inner(pctx, p)
	}
	res, err := Run(ctx, Config{Mode: Rate, Loads: []float64{4, 8, 16}}, run)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the cancellation", err)
	}
	if len(res.Points) != 2 || res.Points[0].Interrupted || !res.Points[1].Interrupted {
		t.Fatalf("points %+v: want 4 whole and 8 interrupted", res.Points)
	}
	if res.MaxPassing != 0 {
		t.Errorf("max passing %d, want the whole point only", res.MaxPassing)
	}
}
