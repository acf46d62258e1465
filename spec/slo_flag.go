package spec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// ParseSLOs reads objectives written on one line, as a command-line flag
// takes them: comma-separated "metric.stat<=bound" terms such as
// "ttft.p99<=2s,tpot.p99<=100ms,e2e.mean<=30s". The metrics and
// statistics are those of the spec's slo block, and the result is sorted
// the same way.
func ParseSLOs(s string) ([]SLO, error) {
	var out []SLO
	seen := map[string]bool{}
	for term := range strings.SplitSeq(s, ",") {
		term = strings.TrimSpace(term)
		lhs, rhs, ok := strings.Cut(term, "<=")
		if !ok {
			return nil, fmt.Errorf("slo %q: want metric.stat<=bound, like ttft.p99<=2s", term)
		}
		metric, stat, ok := strings.Cut(strings.TrimSpace(lhs), ".")
		if !ok {
			return nil, fmt.Errorf("slo %q: %q names no statistic: want metric.stat, like ttft.p99", term, lhs)
		}
		if !slices.Contains(metrics, metric) {
			return nil, fmt.Errorf("slo %q: metric %q: want one of %s", term, metric, strings.Join(metrics, ", "))
		}
		p, ok := percentile(stat)
		if !ok {
			return nil, fmt.Errorf("slo %q: %s", term, statMsg(stat))
		}
		b, err := ParseDuration(rhs)
		if err != nil || b <= 0 {
			return nil, fmt.Errorf("slo %q: bound %q: want a positive duration like 2s or 100ms", term, strings.TrimSpace(rhs))
		}
		key := fmt.Sprintf("%s %g", metric, p)
		if seen[key] {
			return nil, fmt.Errorf("slo %q: %s.%s is bounded twice", term, metric, stat)
		}
		seen[key] = true
		out = append(out, SLO{Metric: metric, Percentile: p, Bound: b})
	}
	slices.SortStableFunc(out, func(a, b SLO) int {
		return cmp.Or(
			cmp.Compare(slices.Index(metrics, a.Metric), slices.Index(metrics, b.Metric)),
			cmp.Compare(a.Percentile, b.Percentile))
	})
	return out, nil
}
