package report

import (
	"fmt"
	"io"
	"strings"

	"surge/sweep"
)

// SweepText writes a sweep's result for people, in lines of at most
// TextWidth columns: one row per point, then the knees, the SLO search
// and the operating point. Each point's marks (knee, highest pass,
// interrupted) end its row, or when the table would be too wide with
// them, follow it a line each.
func SweepText(w io.Writer, r *sweep.Result) error {
	var lines []string
	lines = append(lines, fieldLines(TextWidth, "sweep", r.Spec, r.Target, sweepMode(r))...)
	if r.Saturation > 0 {
		lines = append(lines, fieldLines(TextWidth, "saturation", num(r.Saturation)+" req/s closed loop (the probe)")...)
	}
	t, below := sweepTable(r, true), false
	if t.width("") > TextWidth {
		t, below = sweepTable(r, false), true
	}
	var b strings.Builder
	if err := t.write(&b, ""); err != nil {
		return err
	}
	lines = append(lines, "")
	lines = append(lines, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
	lines = append(lines, "")
	lines = append(lines, wrapWords(achievedNote(r.Mode), TextWidth)...)
	lines = append(lines, wrapWords("latencies in ms; TTFT and E2E from the intended send time (queueing counts)", TextWidth)...)
	lines = append(lines, sweepNotes(r, below)...)
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// sweepTable is the table of r's points, under a header of two rows (a
// column's name over its unit or percentile), with each point's marks at
// the end of its row when withMarks.
func sweepTable(r *sweep.Result, withMarks bool) *table {
	marked := false
	for i := range r.Points {
		marked = marked || marks(r, i) != ""
	}
	withMarks = withMarks && marked
	t := &table{left: map[int]bool{8: true, 9: true, 10: true}}
	asked, got := loadHeaders(r.Mode)
	above, got, _ := strings.Cut(got, " ")
	if got == "" {
		above, got = "", above
	}
	head := [][]string{
		{"", above, "", "out", "TTFT", "TTFT", "TPOT", "E2E", "", ""},
		{asked, got, "req/s", "tok/s", "p50", "p99", "p99", "p99", "verdict", "measurement"},
	}
	for _, h := range head {
		if withMarks {
			h = append(h, "")
		}
		t.add(h...)
	}
	for i, p := range r.Points {
		row := []string{loadNum(p.Load), num(achieved(r.Mode, p)), num(p.Throughput), num(p.OutputTokS), ms(p.TTFT.P50), ms(p.TTFT.P99), ms(p.TPOT.P99), ms(p.E2E.P99)}
		row = append(unmeasured(p, row), verdictWord(p), measurementWord(p))
		if withMarks {
			row = append(row, marks(r, i))
		}
		t.add(row...)
	}
	return t
}

// sweepNotes are the lines after r's table: the knees, why points are
// not a pass, their questionable measurements, each point's marks when
// they are below the table rather than in it, the SLO search and the
// operating point; the lines of a note wrapped under its first words.
func sweepNotes(r *sweep.Result, below bool) []string {
	var lines []string
	for _, k := range []*sweep.Knee{r.KneeTTFT, r.KneeE2E} {
		if k != nil {
			lines = append(lines, fieldLines(TextWidth, "knee", fmt.Sprintf("%s at %s req/s (%s ms): past it latency rises much faster than throughput", k.Metric, num(k.Throughput), ms(k.LatencyUS)))...)
		}
	}
	if r.KneeTTFT == nil && r.KneeE2E == nil {
		lines = append(lines, fieldLines(TextWidth, "knee", "none found: the curve does not bend upward within the loads swept")...)
	}
	for _, p := range r.Points {
		if p.Reason != "" {
			lines = append(lines, hanging(fmt.Sprintf("%-11s %s: ", p.Verdict, loadNum(p.Load)), p.Reason, TextWidth)...)
		}
	}
	for _, p := range r.Points {
		if m := p.Measurement; m != nil && !m.Valid() {
			lines = append(lines, hanging(fmt.Sprintf("measured    %s: ", loadNum(p.Load)), m.Line(), TextWidth)...)
		}
	}
	for i, p := range r.Points {
		if m := marks(r, i); below && m != "" {
			lines = append(lines, hanging(fmt.Sprintf("marked      %s: ", loadNum(p.Load)), m, TextWidth)...)
		}
	}
	if s := r.Search; s != nil {
		lines = append(lines, fieldLines(TextWidth, "slo search", s.Note)...)
	}
	if o := r.Operating; o != nil {
		lines = append(lines, fieldLines(TextWidth, "operate at", fmt.Sprintf("%s %s (about %s req/s): %s below %s", num(o.Load), loadUnit(r.Mode), num(o.Throughput), pct(o.Headroom), o.Basis))...)
	}
	return lines
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
