package report

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"surge/sweep"
)

// sweepView is the sweep part of the page.
type sweepView struct {
	Fields []field
	Charts []*chartView
	Points grid
	// Sections are the points that carry a summary, each linked from
	// the table.
	Sections []pointSection
}

// pointSection is one point's key figures.
type pointSection struct {
	ID, Title string
	Figures   []field
	Latency   grid
}

// newSweepView lays out the sweep r.
func newSweepView(r *sweep.Result) (*sweepView, error) {
	cs, err := sweepCharts(r)
	if err != nil {
		return nil, fmt.Errorf("html report: %w", err)
	}
	v := &sweepView{Fields: sweepFields(r), Charts: views(cs), Points: pointGrid(r)}
	for i := range r.Points {
		p := &r.Points[i]
		if p.Summary == nil {
			continue
		}
		v.Sections = append(v.Sections, pointSection{
			ID:      pointID(i),
			Title:   fmt.Sprintf("Point %d: %s %s", i+1, pointLoad(r.Mode, p), dirNote(p.Dir)),
			Figures: keyFigures(p.Summary),
			Latency: latencyGrid(&p.Summary.All),
		})
	}
	return v, nil
}

// pointID is the DOM id of point i's section.
func pointID(i int) string { return fmt.Sprintf("point-%d", i+1) }

// loadName words a point's load: "12 req/s" or "concurrency 8".
func loadName(m sweep.Mode, load float64) string {
	if m == sweep.Concurrency {
		return "concurrency " + loadNum(load)
	}
	return loadNum(load) + " req/s"
}

// pointLoad words the load a point asked for and what it achieved:
// "12 req/s offered, 11.8/s sent" or "concurrency 8, 7.6 in flight".
func pointLoad(m sweep.Mode, p *sweep.Point) string {
	if m == sweep.Concurrency {
		return fmt.Sprintf("%s, %s in flight", loadName(m, p.Load), num(p.MeanInFlight))
	}
	return fmt.Sprintf("%s offered, %s/s sent", loadName(m, p.Load), num(p.SendRate))
}

// dirNote names where a point's records are.
func dirNote(dir string) string {
	if dir == "" {
		return ""
	}
	return "(records in " + dir + ")"
}

// sweepFields say what the sweep ran and what it found.
func sweepFields(r *sweep.Result) []field {
	fs := []field{{"spec", r.Spec}, {"spec hash", r.SpecHash}, {"target", r.Target}, {"mode", string(r.Mode)}}
	if r.Saturation > 0 {
		fs = append(fs, field{"saturation", num(r.Saturation) + " req/s, measured closed loop before placing the points"})
	}
	var slos []string
	for _, slo := range r.SLO {
		slos = append(slos, sloName(slo.Metric, slo.Percentile, float64(slo.BoundUS)))
	}
	if len(slos) > 0 {
		fs = append(fs, field{"SLOs", strings.Join(slos, " · ")})
	}
	for _, k := range []*sweep.Knee{r.KneeTTFT, r.KneeE2E} {
		if k != nil {
			fs = append(fs, field{"knee of " + k.Metric, fmt.Sprintf("point %d: %s req/s at %s ms", k.Index+1, num(k.Throughput), ms(k.LatencyUS))})
		}
	}
	switch {
	case r.MaxPassing >= 0 && r.MaxPassing < len(r.Points):
		p := &r.Points[r.MaxPassing]
		fs = append(fs, field{"max passing SLO", fmt.Sprintf("point %d: %s, %s req/s achieved", r.MaxPassing+1, loadName(r.Mode, p.Load), num(p.Throughput))})
	case len(r.SLO) > 0:
		fs = append(fs, field{"max passing SLO", "no point passed every SLO"})
	}
	if o := r.Operating; o != nil {
		fs = append(fs, field{"operating point", fmt.Sprintf("%s, expecting %s req/s: %s below %s",
			loadName(r.Mode, o.Load), num(o.Throughput), pct(o.Headroom), o.Basis)})
	} else {
		fs = append(fs, field{"operating point", "none qualifies"})
	}
	return fs
}

// pointGrid is the table of a sweep's points with their SLO verdicts.
func pointGrid(r *sweep.Result) grid {
	asked, got := loadHeaders(r.Mode)
	g := grid{Head: []string{"#", asked, got, "req/s", "out tok/s", "TTFT p50 ms", "TTFT p99 ms", "TPOT p50 ms", "TPOT p99 ms", "E2E p50 ms", "E2E p99 ms", "state", "verdict", "measurement", "report"}}
	for i := range r.Points {
		p := &r.Points[i]
		n := cell{Text: fmt.Sprint(i + 1)}
		if p.Summary != nil {
			n.Href = "#" + pointID(i)
		}
		state := cell{Text: "ok"}
		if p.Saturated {
			state = cell{Text: "saturated", Class: "fail"}
		}
		if p.Stopped != "" {
			state.Text += ": " + p.Stopped
		}
		figures := unmeasured(*p, []string{num(p.Load), num(achieved(r.Mode, *p)), num(p.Throughput), num(p.OutputTokS),
			ms(p.TTFT.P50), ms(p.TTFT.P99), ms(p.TPOT.P50), ms(p.TPOT.P99), ms(p.E2E.P50), ms(p.E2E.P99)})
		row := []cell{n}
		for _, f := range figures {
			row = append(row, cell{Text: f})
		}
		g.Rows = append(g.Rows, append(row, state, verdictCell(p), measurementCell(p), reportCell(p)))
	}
	return g
}

// reportCell links a point's own report.html, in its directory relative
// to the sweep's (where the sweep's page is); "—" when the point names
// no directory.
func reportCell(p *sweep.Point) cell {
	if p.Dir == "" {
		return cell{Text: "—"}
	}
	return cell{Text: "report.html", Href: pointReport(p.Dir)}
}

// pointReport is the relative URL of the report.html in dir.
func pointReport(dir string) string {
	return path.Join(filepath.ToSlash(dir), "report.html")
}

// verdictCell shows a point's verdict word (sweep.Point.Decide) with its
// reason and each check's outcome.
func verdictCell(p *sweep.Point) cell {
	class := map[sweep.Word]string{sweep.WordPass: "pass", sweep.WordFail: "fail", sweep.WordSaturated: "fail", sweep.WordInconclusive: "unsure"}
	c := cell{Text: verdictWord(*p), Class: class[p.Verdict]}
	if p.Reason != "" {
		c.Text += ": " + p.Reason
	}
	if p.SLO == nil {
		return c
	}
	var checks []string
	for _, ch := range p.SLO.Checks {
		s := fmt.Sprintf("%s: %s (%s ms, %d of %d over)", sloName(ch.Metric, ch.Percentile, float64(ch.BoundUS)), ch.Outcome, ms(ch.ObservedUS), ch.Exceeded, ch.N)
		if ch.NeedMore > 0 {
			s += fmt.Sprintf(", %d more needed", ch.NeedMore)
		}
		checks = append(checks, s)
	}
	if len(checks) > 0 {
		c.Text += " — " + strings.Join(checks, "; ")
	}
	return c
}

// measurementCell shows the verdict on a point's measurement, with its
// reasons when questionable.
func measurementCell(p *sweep.Point) cell {
	m := p.Measurement
	switch {
	case m == nil:
		return cell{Text: "—"}
	case m.Valid():
		return cell{Text: m.Verdict, Class: "pass"}
	}
	return cell{Text: m.Verdict + ": " + strings.Join(m.Reasons, "; "), Class: "fail"}
}
