package spec

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// metrics are the latency metrics an SLO can bound, in report order: time
// to first token, time to first output (first byte of any content), inter-
// token latency, time per output token, end-to-end latency.
var metrics = []string{"ttft", "ttfo", "itl", "tpot", "e2e"}

// statKeys are the usual statistic keys of an SLO, for hints; any pN with
// 0 < N < 100 is accepted.
var statKeys = []string{"p50", "p90", "p95", "p99", "p99.9", "mean"}

// slo reads the slo block: metric → statistic → bound. The result is sorted
// by metric (in metrics order) and then percentile, the mean first.
func (d *decoder) slo(n ast.Node, path string) []SLO {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, metrics, "slo")
	var out []SLO
	for _, metric := range o.keys {
		if !slices.Contains(metrics, metric) {
			continue
		}
		mn, mpath, _ := o.get(metric)
		mo, ok := d.object(mn, mpath)
		if !ok {
			continue
		}
		if len(mo.keys) == 0 {
			d.errorf(mo.node, mpath, "needs at least one bound, like {p99: 2s}")
		}
		seen := map[float64]string{}
		for _, key := range mo.keys {
			kpath := join(mpath, key)
			p, ok := percentile(key)
			if !ok {
				d.errorf(mo.kpos[key], kpath, "%s", statMsg(key))
				continue
			}
			if first, dup := seen[p]; dup {
				d.errorf(mo.kpos[key], kpath, "same statistic as %s", first)
				continue
			}
			seen[p] = key
			if b, ok := d.duration(mo.vals[key], kpath); ok {
				if d.check(mo, key, b <= 0, "bound must be > 0") {
					out = append(out, SLO{Metric: metric, Percentile: p, Bound: b})
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b SLO) int {
		return cmp.Or(
			cmp.Compare(slices.Index(metrics, a.Metric), slices.Index(metrics, b.Metric)),
			cmp.Compare(a.Percentile, b.Percentile))
	})
	return out
}

// percentile reads a statistic key: "mean" is 0, "p99.9" is 99.9.
func percentile(key string) (float64, bool) {
	if key == "mean" {
		return 0, true
	}
	num, ok := strings.CutPrefix(key, "p")
	if !ok || num == "" || strings.ContainsAny(num, "eE+-xXpP_") {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	return v, err == nil && v > 0 && v < 100
}

// statMsg explains a statistic key that percentile rejects.
func statMsg(key string) string {
	if num, ok := strings.CutPrefix(key, "p"); ok {
		if _, err := strconv.ParseFloat(num, 64); err == nil {
			return "percentile out of range: pN needs 0 < N < 100"
		}
	}
	return "unknown statistic" + didYouMean(key, statKeys) + "; any pN with 0 < N < 100 works"
}

// statKey prints a percentile as its statistic key, the inverse of
// percentile.
func statKey(p float64) string {
	if p == 0 {
		return "mean"
	}
	return "p" + strconv.FormatFloat(p, 'f', -1, 64)
}
