package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"surge/metrics"
	"surge/metrics/compare"
)

// CompareFormat is the format version written in JSON comparisons.
const CompareFormat = 1

// CompareText writes r as a benchstat-style table: what was compared,
// then one row per statistic with the base and candidate values, the
// delta (relative, or in percentage points for error_rate; "~" when not
// significant; marked "?" when large but underpowered), its bootstrap
// interval, the rank test's p-value and the
// sample sizes; then each gate with its verdict, and the caveats as
// numbered footnotes. Latencies are in milliseconds.
func CompareText(w io.Writer, r *compare.Result) error {
	p := &printer{w: w}
	p.compareHeader(r)
	p.line("")
	t := &table{left: map[int]bool{1: true, 5: true}}
	t.add(compareHead(r)...)
	for i := range r.Rows {
		c := compareCells(&r.Rows[i], &p.notes)
		t.add(c.name, c.unit, c.base, c.cand, c.delta, c.ci, c.p, c.n)
	}
	p.table(t, "")
	p.compareGates(r)
	for _, w := range r.Warnings {
		p.notes.ref(w)
	}
	if p.err == nil {
		p.err = p.notes.write(w)
	}
	return p.err
}

// compareHead is the header row of the comparison table.
func compareHead(r *compare.Result) []string {
	return []string{"metric", "unit", "base", "candidate", "delta", level(r) + " CI", "p", "n"}
}

// level is the intervals' confidence level as a percentage: "95%".
func level(r *compare.Result) string {
	return strconv.FormatFloat(100*(1-r.Alpha), 'f', -1, 64) + "%"
}

// compareHeader writes the two runs, the workload and the method.
func (p *printer) compareHeader(r *compare.Result) {
	p.line("base       %s", runLine(r.Base))
	p.line("candidate  %s", runLine(r.Candidate))
	if r.DifferentWorkload {
		p.line("workload   DIFFERENT: base %s, candidate %s; compared anyway as asked",
			shortHash(r.Base.WorkloadHash), shortHash(r.Candidate.WorkloadHash))
	} else {
		p.line("workload   %s (both runs)", shortHash(r.Base.WorkloadHash))
	}
	p.line("method     %s", method(r))
}

// runLine describes one side of a comparison.
func runLine(run compare.Run) string {
	parts := []string{}
	if run.Name != "" {
		parts = append(parts, run.Name)
	}
	parts = append(parts, run.Target, fmt.Sprintf("%s of %s requests ok", count(run.OK), count(run.Requests)),
		"window "+num(run.Window.Seconds())+" s")
	if m := endMark(run.Ending); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, " · ")
}

// method states how rows are judged, in one line.
func method(r *compare.Result) string {
	return fmt.Sprintf("Mann–Whitney U on per-request values (throughput: on %d windows per run); %s bootstrap intervals, %s resamples, seed %d; ~ = not significant at α = %s; ? = %s: at least %s× or at most 1/%s of the base (error rate: ±%s points), yet not significant",
		r.Windows, level(r), count(r.Resamples), r.Seed, strconv.FormatFloat(r.Alpha, 'f', -1, 64),
		compare.FindingUnderpowered, plain(compare.LargeRatio), plain(compare.LargeRatio), plain(100*compare.LargePoints))
}

// plain formats x in as few digits as it needs: 2, 0.5.
func plain(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// compareGates writes each gate's verdict.
func (p *printer) compareGates(r *compare.Result) {
	if len(r.Gates) == 0 {
		return
	}
	p.line("")
	p.line("gates      %s", gateSummary(r))
	t := &table{left: map[int]bool{1: true, 3: true}}
	for _, g := range r.Gates {
		t.add(strings.ToUpper(string(g.Verdict)), g.Gate.String(), gateDelta(r, g), g.Reason)
	}
	p.table(t, "  ")
}

// gateSummary counts failed gates, "1 of 2 failed", "all 2 passed", and
// says when unjudged gates were not counted as failures.
func gateSummary(r *compare.Result) string {
	f, u := len(r.Failed()), r.Unjudged()
	var s string
	switch {
	case f > 0:
		s = fmt.Sprintf("%d of %d failed", f, len(r.Gates))
	case u > 0:
		s = fmt.Sprintf("none of %d failed", len(r.Gates))
	default:
		return fmt.Sprintf("all %d passed", len(r.Gates))
	}
	if u > 0 && !r.FailOnUnjudged {
		s += fmt.Sprintf("; %d unjudged, not counted as failures (--fail-on-unjudged counts them)", u)
	}
	return s
}

// gateDelta is the delta of g's row as the table shows it.
func gateDelta(r *compare.Result, g compare.GateResult) string {
	row := r.Row(g.Gate.Row)
	if row == nil {
		return "n/a"
	}
	return deltaCell(row)
}

// rowCells are the formatted cells of one comparison row.
type rowCells struct{ name, unit, base, cand, delta, ci, p, n string }

// compareCells formats row; its note becomes a footnote mark on the
// name, and a missing interval or p-value a dash.
func compareCells(row *compare.Row, notes *footnotes) rowCells {
	c := rowCells{name: row.Name(), unit: compareUnits[row.Unit], delta: deltaCell(row), ci: "–", p: "–", n: fmt.Sprintf("%d+%d", row.NBase, row.NCandidate)}
	if row.Note != "" {
		c.name += notes.ref(row.Note)
	}
	c.base, c.cand = value(row, row.Base, row.NBase), value(row, row.Candidate, row.NCandidate)
	if row.CI != nil {
		c.ci = "[" + signedDelta(row, row.CI.Lo) + ", " + signedDelta(row, row.CI.Hi) + "]"
	}
	if row.Tested {
		c.p = pValue(row.P)
	}
	return c
}

// compareUnits are the display units of row units.
var compareUnits = map[string]string{
	metrics.UnitUS: "ms", metrics.UnitUSToken: "ms/token",
	compare.UnitRequestsPerS: "req/s", compare.UnitTokensPerS: "tok/s", compare.UnitFraction: "%",
}

// value formats a row's value in its display unit; "–" without values.
func value(row *compare.Row, v float64, n int) string {
	switch {
	case n == 0:
		return "–"
	case row.Unit == metrics.UnitUS || row.Unit == metrics.UnitUSToken:
		return ms(v)
	case row.Unit == compare.UnitFraction:
		return strings.TrimSuffix(pct(v), "%")
	}
	return num(v)
}

// deltaCell is a row's delta by its finding: signed when significant,
// signed and marked "?" when large but underpowered, "~" when not
// significant, "n/a" when the runs cannot be compared.
func deltaCell(row *compare.Row) string {
	switch row.Finding() {
	case compare.FindingNotComparable:
		return "n/a"
	case compare.FindingNoChange:
		return "~"
	case compare.FindingUnderpowered:
		return signedDelta(row, row.Delta) + "?"
	}
	return signedDelta(row, row.Delta)
}

// signedDelta formats a delta: a relative one as "+20.1%", an absolute
// one (a fraction of requests) in percentage points, "+1.2pp". A delta
// that rounds to zero prints as "+0.0".
func signedDelta(row *compare.Row, d float64) string {
	unit := "%"
	if row.Absolute {
		unit = "pp"
	}
	s := fmt.Sprintf("%+.1f", 100*d)
	if s == "-0.0" {
		s = "+0.0"
	}
	return s + unit
}

// pValue formats a p-value with three decimals, "<0.001" below.
func pValue(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(math.Min(p, 1), 'f', 3, 64)
}

// CompareJSON writes r as one indented JSON object: the result's fields
// (see compare.Result; latencies in microseconds, deltas as fractions)
// with "surge_compare": CompareFormat.
func CompareJSON(w io.Writer, r *compare.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	v := struct {
		Format int `json:"surge_compare"`
		*compare.Result
	}{CompareFormat, r}
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing JSON comparison: %w", err)
	}
	return nil
}
