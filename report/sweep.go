package report

import (
	"fmt"
	"io"
	"strings"

	"surge/sweep"
)

// SweepText writes a sweep's result for people: one row per point, then
// the knees, the SLO search and the operating point.
func SweepText(w io.Writer, r *sweep.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "sweep       %s · %s · %s\n", r.Spec, r.Target, sweepMode(r))
	if r.Saturation > 0 {
		fmt.Fprintf(&b, "saturation  %s req/s closed loop (the probe)\n", num(r.Saturation))
	}
	b.WriteString("\n")
	t := table{left: map[int]bool{7: true, 8: true}}
	t.add(loadHeader(r.Mode), "req/s", "out tok/s", "TTFT p50", "TTFT p99", "TPOT p99", "E2E p99", "SLO", "")
	for i, p := range r.Points {
		t.add(num(p.Load), num(p.Throughput), num(p.OutputTokS), ms(p.TTFT.P50), ms(p.TTFT.P99), ms(p.TPOT.P99), ms(p.E2E.P99), pointVerdict(p), marks(r, i))
	}
	if err := t.write(&b, ""); err != nil {
		return err
	}
	b.WriteString("\nlatencies in ms; TTFT and E2E from the intended send time (queueing counts)\n")
	for _, k := range []*sweep.Knee{r.KneeTTFT, r.KneeE2E} {
		if k != nil {
			fmt.Fprintf(&b, "knee        %s at %s req/s (%s ms): past it latency rises much faster than throughput\n", k.Metric, num(k.Throughput), ms(k.LatencyUS))
		}
	}
	if r.KneeTTFT == nil && r.KneeE2E == nil {
		b.WriteString("knee        none found: the curve does not bend upward within the loads swept\n")
	}
	for _, p := range r.Points {
		if p.Saturated {
			fmt.Fprintf(&b, "saturated   %s: %s\n", num(p.Load), p.Stopped)
		}
		if p.SLO != nil {
			for _, c := range p.SLO.Checks {
				if c.Outcome == sweep.Inconclusive {
					fmt.Fprintf(&b, "samples     %s: %s p%g not conclusive: need %s more requests within the bound\n", num(p.Load), c.Metric, c.Percentile, count(c.NeedMore))
				}
			}
		}
	}
	if s := r.Search; s != nil {
		fmt.Fprintf(&b, "slo search  %s\n", s.Note)
	}
	if o := r.Operating; o != nil {
		fmt.Fprintf(&b, "operate at  %s %s (about %s req/s): %s below %s\n", num(o.Load), loadUnit(r.Mode), num(o.Throughput), pct(o.Headroom), o.Basis)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SweepLine is the one-line progress report of a point just run.
func SweepLine(m sweep.Mode, p sweep.Point) string {
	line := fmt.Sprintf("%s %s: %s req/s, TTFT p99 %s ms, E2E p99 %s ms", m, num(p.Load), num(p.Throughput), ms(p.TTFT.P99), ms(p.E2E.P99))
	if p.SLO != nil {
		line += ", SLO " + pointVerdict(p)
	}
	if p.Saturated {
		line += ", saturated: " + p.Stopped
	}
	return line
}

func sweepMode(r *sweep.Result) string {
	if r.Mode == sweep.Concurrency {
		return "closed loop at each concurrency"
	}
	return "open loop at each rate"
}

func loadHeader(m sweep.Mode) string {
	if m == sweep.Concurrency {
		return "concurrency"
	}
	return "rate/s"
}

func loadUnit(m sweep.Mode) string {
	if m == sweep.Concurrency {
		return "in flight"
	}
	return "req/s"
}

// pointVerdict is a point's SLO verdict in a word: pass, fail (also when
// saturated: its latencies hold only for the run's length), or "n/a" (too
// few samples for a verdict, or interrupted), or "" without SLOs.
func pointVerdict(p sweep.Point) string {
	v := p.SLO
	switch {
	case v == nil:
		return ""
	case p.Interrupted:
		return "n/a"
	case p.Saturated:
		return "fail"
	case v.Pass:
		return "pass"
	}
	for _, c := range v.Checks {
		if c.Outcome == sweep.Fail {
			return "fail"
		}
	}
	return "n/a"
}

// marks labels point i: knee, limit, saturated.
func marks(r *sweep.Result, i int) string {
	var m []string
	if k := r.KneeTTFT; k != nil && k.Index == i {
		m = append(m, "TTFT knee")
	}
	if k := r.KneeE2E; k != nil && k.Index == i {
		m = append(m, "E2E knee")
	}
	if r.MaxPassing == i {
		m = append(m, "highest pass")
	}
	if r.Points[i].Saturated {
		m = append(m, "saturated")
	}
	if r.Points[i].Interrupted {
		m = append(m, "interrupted")
	}
	return strings.Join(m, ", ")
}
