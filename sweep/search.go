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
// then it runs a load CheckFactor above the highest pass, as the
// verdict's check. An inconclusive point (too few requests) counts as not
// passing.
func (s *sweeper) search(ctx context.Context) error {
	sr := &Search{}
	s.res.Search = sr
	lo, hi := s.bracket()
	if lo == 0 {
		sr.Note = "no load passed every SLO: sweep lower loads"
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
	sr.MaxLoad, sr.Bracket = lo, hi
	check := lo * CheckFactor
	if s.cfg.Mode == Concurrency {
		check = math.Ceil(check)
	}
	p := s.at(check)
	if p == nil {
		var err error
		if p, err = s.point(ctx, check); err != nil {
			return err
		}
		sr.Runs++
	}
	sr.CheckLoad, sr.CheckPass = check, passed(p)
	sr.Note = searchNote(s.cfg.Mode, sr)
	return nil
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
func passed(p *Point) bool { return p.SLO != nil && p.SLO.Pass && !p.Saturated }

// searchNote says what the search found in a sentence.
func searchNote(m Mode, sr *Search) string {
	unit := map[Mode]string{Rate: " req/s", Concurrency: " in flight"}[m]
	switch {
	case sr.CheckPass && sr.Bracket == 0:
		return fmt.Sprintf("every load passed every SLO, up to %s%s (10%% above the highest swept): sweep higher loads to find the limit",
			trimFloat(sr.CheckLoad), unit)
	case sr.CheckPass:
		return fmt.Sprintf("%s%s passed every SLO, and so did %s%s (10%% higher): the limit lies within run-to-run noise of these loads",
			trimFloat(sr.MaxLoad), unit, trimFloat(sr.CheckLoad), unit)
	case sr.Bracket == 0:
		return fmt.Sprintf("%s%s passed every SLO; %s%s (10%% higher) did not", trimFloat(sr.MaxLoad), unit, trimFloat(sr.CheckLoad), unit)
	default:
		return fmt.Sprintf("%s%s passed every SLO; %s%s (10%% higher) did not (bracket: %s%s failed)",
			trimFloat(sr.MaxLoad), unit, trimFloat(sr.CheckLoad), unit, trimFloat(sr.Bracket), unit)
	}
}
