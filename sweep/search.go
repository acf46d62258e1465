package sweep

import (
	"context"
	"fmt"
	"math"
)

// maxSearchRuns bounds the runs the SLO search adds, climbing and
// bisecting; climbStep is the factor each climbing run raises the load by.
const (
	maxSearchRuns = 8
	climbStep     = 1.25
)

// search brackets the highest load that passes every SLO: when every
// point passed it climbs, raising the load by climbStep until a run does
// not pass; between the highest passing point and the lowest failing one
// above it, it bisects until the two are within Precision of each other;
// then it checks the load CheckFactor above the highest pass (see check).
// An inconclusive point (too few requests) counts as not passing.
func (s *sweeper) search(ctx context.Context) error {
	sr := &Search{}
	s.res.Search = sr
	lo, hi := s.bracket()
	if lo == 0 {
		sr.Note = nothingPassed(s.res.Points)
		return nil
	}
	for hi == 0 && sr.Runs < maxSearchRuns/2 {
		next := lo * climbStep
		if s.cfg.Mode == Concurrency {
			next = math.Ceil(next)
		}
		p, err := s.point(ctx, next)
		if err != nil {
			return err
		}
		sr.Runs++
		if passed(p) {
			lo = next
		} else {
			hi = next
		}
	}
	for hi > 0 && hi > lo*(1+s.cfg.Precision) && sr.Runs < maxSearchRuns {
		mid := (lo + hi) / 2
		if s.cfg.Mode == Concurrency {
			mid = math.Floor(mid)
			if mid <= lo {
				break
			}
		}
		p, err := s.point(ctx, mid)
		if err != nil {
			return err
		}
		sr.Runs++
		if passed(p) {
			lo = mid
		} else {
			hi = mid
		}
	}
	if hi == 0 {
		sr.MaxLoad = lo
		sr.Note = searchNote(s.cfg.Mode, sr)
		return nil
	}
	return s.check(ctx, sr, lo, hi)
}

// check runs the load CheckFactor above lo, the highest passing load. A
// pass inside the bracket (below hi, the lowest failing load, or with no
// failing load yet) raises lo and checks again; a pass at or above hi, a
// load that failed, means the boundary is within run-to-run noise.
func (s *sweeper) check(ctx context.Context, sr *Search, lo, hi float64) error {
	for {
		load := lo * CheckFactor
		if s.cfg.Mode == Concurrency {
			load = math.Ceil(load)
		}
		p := s.at(load)
		if p == nil {
			var err error
			if p, err = s.point(ctx, load); err != nil {
				return err
			}
			sr.Runs++
		}
		if passed(p) && load < hi && sr.Runs < maxSearchRuns+2 {
			lo = load
			continue
		}
		sr.MaxLoad, sr.Bracket, sr.CheckLoad, sr.CheckPass = lo, hi, load, passed(p)
		sr.Note = searchNote(s.cfg.Mode, sr)
		return nil
	}
}

// bracket returns the highest passing load and the lowest load above it
// that did not pass (0 when none).
func (s *sweeper) bracket() (lo, hi float64) {
	for _, p := range s.res.Points {
		if passed(&p) && p.Load > lo {
			lo = p.Load
		}
	}
	for _, p := range s.res.Points {
		if !passed(&p) && p.Load > lo && (hi == 0 || p.Load < hi) {
			hi = p.Load
		}
	}
	return lo, hi
}

// at returns the point run at load, if any.
func (s *sweeper) at(load float64) *Point {
	for i := range s.res.Points {
		if math.Abs(s.res.Points[i].Load-load) <= 1e-9*load {
			return &s.res.Points[i]
		}
	}
	return nil
}

// passed reports whether p passed every SLO at a load the server
// sustained: an over-saturated point's latencies hold only for the length
// of its run, so it does not pass however they compare with the bounds.
func passed(p *Point) bool { return p.Verdict == WordPass }

// nothingPassed says why no load passed every SLO, and what to do: sweep
// lower loads when the lowest load failed or saturated; when it had too
// few requests to judge, run more requests per point, since a lower load
// would be just as short of them.
func nothingPassed(points []Point) string {
	var low *Point
	for i := range points {
		if low == nil || points[i].Load < low.Load {
			low = &points[i]
		}
	}
	if low != nil && low.Verdict == WordInconclusive && low.SLO != nil {
		for _, c := range low.SLO.Checks {
			if c.Outcome == Inconclusive {
				return fmt.Sprintf("not enough requests per point to judge %s (%d measured, %d needed): raise --requests or --min-requests",
					sloLabel(c.SLO), c.N, c.N+c.NeedMore)
			}
		}
	}
	return "no load passed every SLO: sweep lower loads"
}

// searchNote says what the search found in a sentence.
func searchNote(m Mode, sr *Search) string {
	unit := map[Mode]string{Rate: " req/s", Concurrency: " in flight"}[m]
	switch {
	case sr.Bracket == 0:
		return fmt.Sprintf("every load passed every SLO, up to %s%s: sweep higher loads to find the limit", trimFloat(sr.MaxLoad), unit)
	case sr.CheckPass && sr.CheckLoad < sr.Bracket:
		return fmt.Sprintf("%s%s passed every SLO and %s%s did not; the search ran out of runs between them",
			trimFloat(sr.CheckLoad), unit, trimFloat(sr.Bracket), unit)
	case sr.CheckPass:
		return fmt.Sprintf("%s%s passed every SLO, and so did %s%s (10%% higher): the limit lies within run-to-run noise of these loads",
			trimFloat(sr.MaxLoad), unit, trimFloat(sr.CheckLoad), unit)
	default:
		return fmt.Sprintf("%s%s passed every SLO; %s%s (10%% higher) did not (bracket: %s%s failed)",
			trimFloat(sr.MaxLoad), unit, trimFloat(sr.CheckLoad), unit, trimFloat(sr.Bracket), unit)
	}
}
