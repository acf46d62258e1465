package sweep

import (
	"context"
	"fmt"
	"math"
	"slices"

	"surge/metrics"
	"surge/trace"
)

// Defaults of Config.
const (
	DefaultPoints           = 10
	DefaultProbeConcurrency = 256
	DefaultHeadroom         = 0.2
	// DefaultPrecision is how close the SLO search brackets the highest
	// passing rate: it stops when the lowest failing load is within 5% of
	// the highest passing one.
	DefaultPrecision = 0.05
	// CheckFactor is how far above the load the SLO search found the
	// check point runs: 10% higher.
	CheckFactor = 1.1
)

// Config configures a sweep.
type Config struct {
	Mode  Mode
	Loads []float64 // the loads to run; empty with Auto
	// Auto measures the saturation throughput first (closed loop at
	// ProbeConcurrency) and then runs Points rates between a tenth of it
	// and 15% past it, denser from 65% up, where knees are.
	Auto             bool
	Points           int // 0: DefaultPoints
	ProbeConcurrency int // 0: DefaultProbeConcurrency
	// Confidence is the level of SLO verdicts (0: DefaultConfidence);
	// Headroom the fraction the operating point stays below the highest
	// passing load or the knee (0: DefaultHeadroom); Precision the SLO
	// search's (0: DefaultPrecision).
	Confidence, Headroom, Precision float64
	// Progress, when set, is called with each point as it is done.
	Progress func(p Point)
}

func (c Config) withDefaults() Config {
	if c.Points <= 0 {
		c.Points = DefaultPoints
	}
	if c.ProbeConcurrency <= 0 {
		c.ProbeConcurrency = DefaultProbeConcurrency
	}
	if c.Confidence <= 0 || c.Confidence >= 1 {
		c.Confidence = DefaultConfidence
	}
	if c.Headroom <= 0 || c.Headroom >= 1 {
		c.Headroom = DefaultHeadroom
	}
	if c.Precision <= 0 {
		c.Precision = DefaultPrecision
	}
	return c
}

// Plan is one run a sweep asks for.
type Plan struct {
	Mode Mode
	Load float64 // requests per second (Rate) or in flight (Concurrency)
	// Name is a short unique name for the run, fit for a directory:
	// "rate-12.5", "concurrency-64", "saturation".
	Name string
	// Watch, when set, must see every record of the run as it finishes;
	// it cancels the run's context once the run is over-saturated.
	Watch *Watch
}

// probeName names the saturation probe's run.
const probeName = "saturation"

// RunFunc runs the workload as p says and returns its records. A run
// cut short by its context's cancellation returns the records it has and
// no error.
type RunFunc func(ctx context.Context, p Plan) (*trace.Records, error)

// sweeper runs one sweep with a RunFunc.
type sweeper struct {
	cfg Config
	run RunFunc
	res *Result
}

// Run runs the sweep cfg describes, calling run for each point, and
// returns its result; res's descriptive fields (Spec, Target…) are left
// for the caller. It stops at the first run that fails and returns what it
// has with the error.
func Run(ctx context.Context, cfg Config, run RunFunc) (*Result, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	s := &sweeper{cfg: cfg, run: run, res: &Result{Mode: cfg.Mode, MaxPassing: -1}}
	err := s.sweep(ctx)
	s.finish()
	return s.res, err
}

func (s *sweeper) sweep(ctx context.Context) error {
	loads := s.cfg.Loads
	if s.cfg.Auto {
		sat, err := s.probe(ctx)
		if err != nil {
			return err
		}
		s.res.Saturation = sat
		loads = AutoRates(sat, s.cfg.Points)
	}
	loads = slices.Clone(loads)
	slices.Sort(loads)
	over := 0
	for _, l := range slices.Compact(loads) {
		if s.cfg.Auto && over >= 2 {
			break // two over-saturated points in a row: higher loads only queue
		}
		p, err := s.point(ctx, l)
		if err != nil {
			return err
		}
		if p.Saturated {
			over++
		} else {
			over = 0
		}
	}
	if len(s.res.SLO) > 0 {
		return s.search(ctx)
	}
	return nil
}

// probe measures the saturation throughput: successful requests per
// second closed loop at the probe concurrency.
func (s *sweeper) probe(ctx context.Context) (float64, error) {
	rs, err := s.run(ctx, Plan{Mode: Concurrency, Load: float64(s.cfg.ProbeConcurrency), Name: probeName})
	if err != nil {
		return 0, fmt.Errorf("saturation probe at concurrency %d: %w", s.cfg.ProbeConcurrency, err)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	sat := summarize(rs, s.cfg.Confidence).All.Throughput.RequestsPerS
	if !(sat > 0) {
		return 0, fmt.Errorf("saturation probe at concurrency %d: no request succeeded while the load was applied (%d records)", s.cfg.ProbeConcurrency, len(rs.Records))
	}
	return sat, nil
}

// AutoRates places n rates (at least 4) for a server that saturates at
// sat requests per second: a third of them evenly from 0.1·sat to
// 0.6·sat, the rest evenly from 0.65·sat to 1.15·sat, where the knee
// and the highest passing rate usually are.
func AutoRates(sat float64, n int) []float64 {
	n = max(n, 4)
	low := n / 3
	high := n - low
	var out []float64
	for i := range low {
		out = append(out, sat*(0.1+0.5*float64(i)/float64(low)))
	}
	for i := range high {
		out = append(out, sat*(0.65+0.5*float64(i)/float64(high-1)))
	}
	return out
}

// point runs the workload at load, adds the point to the result and
// returns it.
func (s *sweeper) point(ctx context.Context, load float64) (*Point, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	plan := Plan{Mode: s.cfg.Mode, Load: load, Name: pointName(s.cfg.Mode, load)}
	if s.cfg.Mode == Rate {
		plan.Watch = NewWatch(cancel, 0)
	}
	rs, err := s.run(pctx, plan)
	if err != nil {
		return nil, fmt.Errorf("%s %g: %w", s.cfg.Mode, load, err)
	}
	p := newPoint(load, plan.Name, rs, s.cfg.Confidence)
	if err := ctx.Err(); err != nil {
		// The sweep itself was interrupted: keep what the point saw.
		p.Interrupted, p.Stopped = true, "interrupted"
		p.Decide()
		s.res.Points = append(s.res.Points, p)
		return nil, err
	}
	if plan.Watch != nil {
		p.Stopped = plan.Watch.Stopped()
	}
	if p.Stopped == "" && s.cfg.Mode == Rate {
		_, p.Stopped = Overloaded(rs.Records) // a run that finished: did it queue without bound?
	}
	if p.Stopped == "" && s.cfg.Mode == Rate {
		_, p.Stopped = SteadyOf(rs.Records).Unsustained()
	}
	p.Saturated = p.Stopped != ""
	p.Decide()
	if len(s.res.SLO) == 0 {
		s.res.SLO = slices.Clone(rs.Header.SLO)
	}
	s.res.Points = append(s.res.Points, p)
	if s.cfg.Progress != nil {
		s.cfg.Progress(p)
	}
	return &s.res.Points[len(s.res.Points)-1], nil
}

// pointName names the run at load: "rate-12.5", "concurrency-64".
func pointName(m Mode, load float64) string {
	return fmt.Sprintf("%s-%s", m, trimFloat(load))
}

// trimFloat renders v with at most 3 decimals and no trailing zeros.
func trimFloat(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// summarize summarises a point's records as surge report does, with SLO
// verdicts at the given confidence.
func summarize(rs *trace.Records, confidence float64) *metrics.Summary {
	return metrics.Summarize(rs, metrics.Options{SLOConfidence: confidence})
}

// newPoint reads a point's figures from the summary of its records, the
// summary its own report shows: throughput over the throughput window,
// latency and the SLO checks. The verdict word is left to Decide, once
// saturation is known.
func newPoint(load float64, name string, rs *trace.Records, confidence float64) Point {
	sum := summarize(rs, confidence)
	all := &sum.All
	tp := &all.Throughput
	return Point{
		Load:         load,
		SendRate:     tp.SendRatePerS,
		MeanInFlight: tp.MeanConcurrency,
		Throughput:   tp.RequestsPerS,
		OutputTokS:   tp.OutputTokensPerS,
		Measured:     all.Requests,
		TTFT:         quantiles(&all.Latency.TTFTLag),
		TPOT:         quantiles(&all.Latency.TPOT),
		E2E:          quantiles(&all.Latency.E2ELag),
		SLO:          Judge(all),
		Measurement:  sum.Measurement,
		Dir:          name,
		Summary:      sum,
	}
}

func quantiles(m *metrics.Metric) Quantiles {
	var q Quantiles
	if p, ok := m.At(50); ok {
		q.P50 = p.Value
	}
	if p, ok := m.At(99); ok {
		q.P99 = p.Value
	}
	return q
}

// finish sorts the points by load and fills in the knees, the highest
// passing point and the operating point.
func (s *sweeper) finish() {
	r := s.res
	slices.SortStableFunc(r.Points, func(a, b Point) int { return cmpFloat(a.Load, b.Load) })
	r.KneeTTFT = knee(r.Points, "ttft.p99", func(p *Point) float64 { return p.TTFT.P99 })
	r.KneeE2E = knee(r.Points, "e2e.p99", func(p *Point) float64 { return p.E2E.P99 })
	r.MaxPassing = -1
	for i := range r.Points {
		if passed(&r.Points[i]) {
			r.MaxPassing = i
		}
	}
	r.Operating = operating(r, s.cfg.Headroom)
}

// knee finds the knee of lat against throughput over points with
// Kneedle on the logarithm of latency: past saturation an open-loop p99
// grows by orders of magnitude, and on a linear scale that growth would
// flatten the bend before it (the report plots latency on a log axis for
// the same reason). A point without the latency (0) has no knee.
func knee(points []Point, metric string, lat func(*Point) float64) *Knee {
	var x, y []float64
	var idx []int
	for i := range points {
		if points[i].Interrupted || points[i].Measured == 0 {
			continue // cut short by the user, or nothing measured: not a point of the curve
		}
		v := lat(&points[i])
		if !(v > 0) {
			return nil
		}
		x, y, idx = append(x, points[i].Throughput), append(y, math.Log(v)), append(idx, i)
	}
	k := Kneedle(x, y, 1)
	if k < 0 {
		return nil
	}
	i := idx[k]
	return &Knee{Metric: metric, Index: i, Throughput: x[k], LatencyUS: lat(&points[i])}
}

// operating recommends a load Headroom below the SLO search's limit (the
// highest passing load, when the search found no more), or below the p99
// TTFT knee when there are no SLOs.
func operating(r *Result, headroom float64) *Operating {
	var base float64
	var basis string
	switch {
	case r.Search != nil && r.Search.MaxLoad > 0:
		base = r.Search.MaxLoad
		basis = fmt.Sprintf("the SLO search's limit (%s)", trimFloat(base))
	case len(r.SLO) > 0 && r.MaxPassing >= 0:
		base = r.Points[r.MaxPassing].Load
		basis = fmt.Sprintf("the highest %s that passed every SLO (%s)", r.Mode, trimFloat(base))
	case len(r.SLO) == 0 && r.KneeTTFT != nil:
		base = r.Points[r.KneeTTFT.Index].Load
		basis = fmt.Sprintf("the %s at the knee of p99 TTFT (%s)", r.Mode, trimFloat(base))
	default:
		return nil
	}
	load := base * (1 - headroom)
	if r.Mode == Concurrency {
		load = math.Max(1, math.Floor(load))
	}
	return &Operating{Load: load, Throughput: throughputAt(r.Points, load), Headroom: headroom, Basis: basis}
}

// throughputAt interpolates achieved throughput linearly in load between
// the points around load (points sorted by load); below the first point
// it scales the first point's throughput in proportion.
func throughputAt(points []Point, load float64) float64 {
	if len(points) == 0 {
		return 0
	}
	if load <= points[0].Load {
		return points[0].Throughput * load / points[0].Load
	}
	for i := 1; i < len(points); i++ {
		a, b := points[i-1], points[i]
		if load <= b.Load {
			f := (load - a.Load) / (b.Load - a.Load)
			return a.Throughput + f*(b.Throughput-a.Throughput)
		}
	}
	return points[len(points)-1].Throughput
}
