package sim_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"surge/sim"
)

// tpKey groups rows that differ only in TP: same source, engine, model,
// precision, shape, load and metric.
type tpKey struct {
	source, engine, model, precision, metric, load string
	isl, osl                                       int
}

// tpRatio compares one row with its TP2 sibling: measured and predicted
// value at TP over the value at TP2.
type tpRatio struct {
	tp              int
	measured, model float64
}

// tpRatios returns, for every throughput row of an offline or
// concurrency series measured at TP2 and at more GPUs, its ratio to the
// TP2 row, measured and predicted. A ratio shows how well the model
// scales with TP apart from any error common to all TPs of a series.
func tpRatios(cases []rowCase, p sim.CostParams) []tpRatio {
	base := map[tpKey]rowCase{}
	key := func(rc rowCase) tpKey {
		r := rc.row
		return tpKey{r.Source, r.Engine, catalogName(r.Model), r.Precision, r.Metric,
			fmt.Sprint(r.LoadKind, r.LoadValue), *r.ISL, *r.OSL}
	}
	keep := func(rc rowCase) bool {
		return rc.kind == steadyCase && metricKind[rc.row.Metric] == "throughput"
	}
	for _, rc := range cases {
		if keep(rc) && rc.hw.TP == 2 {
			base[key(rc)] = rc
		}
	}
	var out []tpRatio
	for _, rc := range cases {
		b, ok := base[key(rc)]
		if !keep(rc) || !ok || rc.hw.TP <= 2 {
			continue
		}
		out = append(out, tpRatio{rc.hw.TP, rc.row.Value / b.row.Value, predict(rc, p) / predict(b, p)})
	}
	return out
}

// writeTPScaling writes the median error of the TP4/TP2 and TP8/TP2
// throughput ratios.
func writeTPScaling(b *strings.Builder, cases []rowCase, p sim.CostParams) {
	b.WriteString("\n## TP scaling\n\nThroughput at TP4 and TP8 over the same series at TP2 (same engine, model,\n" +
		"shape and load), measured and predicted: the error of the ratio is the\nmodel's error in scaling with TP, apart from any error all TPs share.\n\n" +
		"| ratio | rows | measured (median) | predicted (median) | median error of the ratio |\n|---|---|---|---|---|\n")
	rs := tpRatios(cases, p)
	for _, tp := range []int{4, 8} {
		var meas, pred, errs []float64
		for _, r := range rs {
			if r.tp == tp {
				meas, pred = append(meas, r.measured), append(pred, r.model)
				errs = append(errs, math.Abs(relErr(r.model, r.measured)))
			}
		}
		if len(errs) == 0 {
			continue
		}
		fmt.Fprintf(b, "| TP%d/TP2 | %d | %.2f | %.2f | %.1f%% |\n", tp, len(errs), median(slices.Clone(meas)), median(slices.Clone(pred)), 100*median(errs))
	}
}
