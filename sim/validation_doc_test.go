package sim

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The -update flag may also be declared by another test file of this
// package; register it only if nobody has.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// updating reports whether -update was given.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const (
	calibrationPath = "testdata/sim_calibration.json"
	validationDoc   = "../docs/sim-validation.md"
)

// TestValidationDoc regenerates docs/sim-validation.md from the calibration
// rows and DefaultCostParams and checks the committed file is current
// (`go test ./sim -run TestValidationDoc -update` rewrites it).
func TestValidationDoc(t *testing.T) {
	t.Parallel()
	rows, err := loadRows(calibrationPath)
	if err != nil {
		t.Fatal(err)
	}
	got := validationMarkdown(rows, DefaultCostParams())
	if updating() {
		if err := os.WriteFile(validationDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(validationDoc)
	if err != nil {
		t.Fatalf("reading %s (run with -update to create it): %v", filepath.Base(validationDoc), err)
	}
	if string(want) != got {
		t.Errorf("%s is stale; run go test ./sim -run TestValidationDoc -update", validationDoc)
	}
}

// TestValidationTargets checks the acceptance targets on all predictable
// rows: median |error| ≤ 15 % for throughput and ≤ 25 % for latency.
func TestValidationTargets(t *testing.T) {
	t.Parallel()
	rows, err := loadRows(calibrationPath)
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := classifyAll(rows)
	for kind, limit := range map[string]float64{"throughput": 0.15, "latency": 0.25} {
		if med := medianAbsErr(cases, DefaultCostParams(), func(rc rowCase) bool { return metricKind[rc.row.Metric] == kind }); med > limit {
			t.Errorf("%s: median |error| %.1f%% > %.0f%%", kind, 100*med, 100*limit)
		}
	}
}

// classifyAll splits rows into predictable cases and skip-reason counts.
func classifyAll(rows []calRow) ([]rowCase, map[string]int) {
	var cases []rowCase
	skips := map[string]int{}
	for _, r := range rows {
		rc, why := classify(r)
		if why != "" {
			skips[why]++
			continue
		}
		cases = append(cases, rc)
	}
	return cases, skips
}

// medianAbsErr is the median of |pred − meas|/meas over the cases keep accepts.
func medianAbsErr(cases []rowCase, p CostParams, keep func(rowCase) bool) float64 {
	var errs []float64
	for _, rc := range cases {
		if keep(rc) {
			e := relErr(predict(rc, p), rc.row.Value)
			errs = append(errs, max(e, -e))
		}
	}
	return median(errs)
}

// median returns the median of xs (0 when empty); xs is reordered.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// validationMarkdown renders docs/sim-validation.md.
func validationMarkdown(rows []calRow, p CostParams) string {
	cases, skips := classifyAll(rows)
	var b strings.Builder
	b.WriteString(docHeader)
	fmt.Fprintf(&b, "\nParameters (DefaultCostParams): η_c %.2f, η_a %.2f, η_m %.2f, c_step %v, c_layer %v, c_seq %v, α %v.\n",
		p.EtaCompute, p.EtaAttention, p.EtaMemory, p.StepOverhead, p.LayerOverhead, p.SeqOverhead, p.CommLatency)
	writeSummary(&b, cases, p)
	writeSkips(&b, skips, len(rows), len(cases))
	writeRows(&b, cases, p)
	return b.String()
}

// writeSummary writes median |error| per metric kind and per metric, for
// the fit set, the held-out set and both.
func writeSummary(b *strings.Builder, cases []rowCase, p CostParams) {
	b.WriteString("\n## Summary: median |error|\n\n| metric | fit rows | held-out rows | all rows | target |\n|---|---|---|---|---|\n")
	groups := []string{"throughput", "latency"}
	metrics := make([]string, 0, len(metricKind))
	for m := range metricKind {
		metrics = append(metrics, m)
	}
	sort.Strings(metrics)
	groups = append(groups, metrics...)
	for _, g := range groups {
		match := func(rc rowCase) bool { return rc.row.Metric == g || metricKind[rc.row.Metric] == g }
		cell := func(set func(rowCase) bool) string {
			n := 0
			for _, rc := range cases {
				if match(rc) && set(rc) {
					n++
				}
			}
			if n == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f%% (n=%d)", 100*medianAbsErr(cases, p, func(rc rowCase) bool { return match(rc) && set(rc) }), n)
		}
		target := map[string]string{"throughput": "≤ 15%", "latency": "≤ 25%"}[g]
		name := g
		if target != "" {
			name = "**" + g + " (all)**"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", name,
			cell(func(rc rowCase) bool { return rc.fit }), cell(func(rc rowCase) bool { return !rc.fit }),
			cell(func(rowCase) bool { return true }), target)
	}
}

// writeSkips writes how many rows were skipped and why.
func writeSkips(b *strings.Builder, skips map[string]int, total, used int) {
	fmt.Fprintf(b, "\n## Rows not predicted\n\n%d of %d rows are predicted; the other %d are skipped:\n\n| reason | rows |\n|---|---|\n", used, total, total-used)
	reasons := make([]string, 0, len(skips))
	for r := range skips {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(b, "| %s | %d |\n", r, skips[r])
	}
}

// writeRows writes one line per predicted row.
func writeRows(b *strings.Builder, cases []rowCase, p CostParams) {
	b.WriteString("\n## Rows\n\n| set | gpu×TP | model | weights/KV | engine | isl/osl | load | metric | measured | predicted | error |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, rc := range cases {
		r := rc.row
		set := "held-out"
		if rc.fit {
			set = "fit"
		}
		load := r.LoadKind
		if r.LoadValue != nil {
			load = fmt.Sprintf("%s %g", r.LoadKind, *r.LoadValue)
		}
		pred := predict(rc, p)
		fmt.Fprintf(b, "| %s | %s×%d | %s | %s/%s | %s | %d/%d | %s | %s | %.4g %s | %.4g | %+.1f%% |\n",
			set, rc.hw.GPU.Name, max(rc.hw.TP, 1), rc.hw.Model.Name, rc.hw.Weights, rc.hw.KV, r.Engine,
			*r.ISL, *r.OSL, load, r.Metric, r.Value, r.Unit, pred, 100*relErr(pred, r.Value))
	}
}
