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
	t := table{left: map[int]bool{8: true, 9: true, 10: true}}
	asked, got := loadHeaders(r.Mode)
	t.add(asked, got, "req/s", "out tok/s", "TTFT p50", "TTFT p99", "TPOT p99", "E2E p99", "verdict", "measurement", "")
	for i, p := range r.Points {
		row := []string{loadNum(p.Load), num(achieved(r.Mode, p)), num(p.Throughput), num(p.OutputTokS), ms(p.TTFT.P50), ms(p.TTFT.P99), ms(p.TPOT.P99), ms(p.E2E.P99)}
		t.add(append(unmeasured(p, row), verdictWord(p), measurementWord(p), marks(r, i))...)
	}
	if err := t.write(&b, ""); err != nil {
		return err
	}
	b.WriteString("\n" + achievedNote(r.Mode) + "\n")
	b.WriteString("latencies in ms; TTFT and E2E from the intended send time (queueing counts)\n")
	for _, k := range []*sweep.Knee{r.KneeTTFT, r.KneeE2E} {
		if k != nil {
			fmt.Fprintf(&b, "knee        %s at %s req/s (%s ms): past it latency rises much faster than throughput\n", k.Metric, num(k.Throughput), ms(k.LatencyUS))
		}
	}
	if r.KneeTTFT == nil && r.KneeE2E == nil {
		b.WriteString("knee        none found: the curve does not bend upward within the loads swept\n")
	}
	for _, p := range r.Points {
		if p.Reason != "" {
			fmt.Fprintf(&b, "%-11s %s: %s\n", p.Verdict, loadNum(p.Load), p.Reason)
		}
	}
	for _, p := range r.Points {
		if m := p.Measurement; m != nil && !m.Valid() {
			fmt.Fprintf(&b, "measured    %s: %s\n", loadNum(p.Load), m.Line())
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
	_, got := loadHeaders(m)
	line := fmt.Sprintf("%s %s (%s %s): %s req/s, TTFT p99 %s ms, E2E p99 %s ms",
		m, num(p.Load), got, num(achieved(m, p)), num(p.Throughput), ms(p.TTFT.P99), ms(p.E2E.P99))
	if p.Verdict != "" {
		line += ", " + string(p.Verdict)
	}
	if p.Reason != "" {
		line += ": " + p.Reason
	}
	return line
}

func sweepMode(r *sweep.Result) string {
	if r.Mode == sweep.Concurrency {
		return "closed loop at each concurrency"
	}
	return "open loop at each rate"
}

// loadHeaders name the load a point asked for and the load it achieved.
func loadHeaders(m sweep.Mode) (asked, got string) {
	if m == sweep.Concurrency {
		return "concurrency", "in flight"
	}
	return "offered/s", "sent/s"
}

// achieved is the load point p achieved: the rate its requests were sent
// at, or the mean of its requests in flight.
func achieved(m sweep.Mode, p sweep.Point) float64 {
	if m == sweep.Concurrency {
		return p.MeanInFlight
	}
	return p.SendRate
}

// achievedNote says what the achieved-load column measures.
func achievedNote(m sweep.Mode) string {
	if m == sweep.Concurrency {
		return "in flight: the time-weighted mean of requests in flight over the point's window"
	}
	return "offered: the rate asked for; sent: the rate the point's requests were actually sent at"
}

func loadUnit(m sweep.Mode) string {
	if m == sweep.Concurrency {
		return "in flight"
	}
	return "req/s"
}

// unmeasured blanks a point's figures (all but its load) with "—" when
// it measured no request: it has no figures, which zeros would misstate.
func unmeasured(p sweep.Point, figures []string) []string {
	if p.Measured > 0 {
		return figures
	}
	for i := 1; i < len(figures); i++ {
		figures[i] = "—"
	}
	return figures
}

// verdictWord is a point's verdict word (sweep.Point.Decide), "no SLO"
// for a point that has none.
func verdictWord(p sweep.Point) string {
	if p.Verdict == "" {
		return "no SLO"
	}
	return string(p.Verdict)
}

// marks labels point i: knee, limit, interrupted.
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
	if r.Points[i].Interrupted {
		m = append(m, "interrupted")
	}
	return strings.Join(m, ", ")
}

// measurementWord is the verdict on a point's measurement in a word:
// "valid", "questionable", or "—" for a point from before the verdict.
func measurementWord(p sweep.Point) string {
	if p.Measurement == nil {
		return "—"
	}
	return p.Measurement.Verdict
}
