package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Gate limits the change of one row: the candidate fails it when the
// row's delta is significant and past Percent in the direction the sign
// gives. Written "ttft.p99:+10%" (fail when more than 10% higher) or
// "output_throughput:-5%" (fail when more than 5% lower); for error_rate
// the percent is in percentage points of requests.
type Gate struct {
	Row      string  // a row name: "ttft.p99", "output_throughput"
	Increase bool    // true: an increase is bad (+); false: a decrease (-)
	Percent  float64 // the threshold, ≥ 0: 10 for 10%
}

// String is the gate as ParseGates reads it: "ttft.p99:+10%".
func (g Gate) String() string {
	sign := "-"
	if g.Increase {
		sign = "+"
	}
	return g.Row + ":" + sign + strconv.FormatFloat(g.Percent, 'f', -1, 64) + "%"
}

// MarshalText writes the gate as String does, so JSON shows "ttft.p99:+10%".
func (g Gate) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a gate as ParseGate does.
func (g *Gate) UnmarshalText(b []byte) error {
	v, err := ParseGate(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// past reports whether delta (a fraction: 0.1 is 10%, or 10 points for
// an absolute row) lies beyond the gate's threshold in its bad direction.
func (g Gate) past(delta float64) bool {
	t := g.Percent / 100
	if g.Increase {
		return delta > t
	}
	return delta < -t
}

// wholeRunRows are the rows named by their metric alone.
var wholeRunRows = []string{"request_throughput", "output_throughput", "error_rate"}

// ParseGates reads a comma-separated list of gates, each
// METRIC.STAT:±N% or, for whole-run rows, METRIC:±N%, e.g.
// "ttft.p99:+10%,output_throughput:-5%". METRIC is one of ttft, ttfo,
// itl, tpot, e2e, ttft+lag, ttfo+lag, e2e+lag (STAT p50, p90, p99 or
// mean), request_throughput, output_throughput or error_rate. Every
// malformed gate is reported. An empty string is no gates.
func ParseGates(s string) ([]Gate, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var gates []Gate
	var errs []error
	for part := range strings.SplitSeq(s, ",") {
		g, err := ParseGate(strings.TrimSpace(part))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		gates = append(gates, g)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return gates, nil
}

// ParseGate reads one gate (see ParseGates).
func ParseGate(s string) (Gate, error) {
	name, threshold, ok := strings.Cut(s, ":")
	if !ok {
		return Gate{}, fmt.Errorf("gate %q: want METRIC.STAT:±N%%, e.g. ttft.p99:+10%%", s)
	}
	if err := checkRowName(name); err != nil {
		return Gate{}, fmt.Errorf("gate %q: %w", s, err)
	}
	g := Gate{Row: name}
	var err error
	if g.Increase, g.Percent, err = parseThreshold(threshold); err != nil {
		return Gate{}, fmt.Errorf("gate %q: %w", s, err)
	}
	return g, nil
}

// checkRowName reports whether name names a row some comparison has.
func checkRowName(name string) error {
	metric, stat, hasStat := strings.Cut(name, ".")
	if slices.Contains(wholeRunRows, metric) {
		if hasStat {
			return fmt.Errorf("%s is a whole-run figure and takes no statistic: write %s:±N%%", metric, metric)
		}
		return nil
	}
	known := false
	for _, m := range latencyMetrics {
		known = known || m.name == metric
	}
	stats := make([]string, len(latencyStats))
	for i, st := range latencyStats {
		stats[i] = metric + "." + st.name
	}
	switch {
	case !known:
		return fmt.Errorf("unknown metric %q; want ttft, ttfo, itl, tpot, e2e, ttft+lag, ttfo+lag or e2e+lag with a statistic, or %s",
			metric, strings.Join(wholeRunRows, ", "))
	case !hasStat:
		return fmt.Errorf("%s needs a statistic: %s", metric, strings.Join(stats, ", "))
	case !slices.Contains(stats, name):
		return fmt.Errorf("unknown statistic %q; want %s", stat, strings.Join(stats, ", "))
	}
	return nil
}

// parseThreshold reads "+10%" or "-5%".
func parseThreshold(s string) (increase bool, percent float64, err error) {
	num, ok := strings.CutSuffix(s, "%")
	switch {
	case !ok:
		return false, 0, fmt.Errorf("threshold %q: want a signed percentage, e.g. +10%% or -5%%", s)
	case strings.HasPrefix(num, "+"):
		increase = true
	case !strings.HasPrefix(num, "-"):
		return false, 0, fmt.Errorf("threshold %q needs a sign: + fails on an increase, - on a decrease", s)
	}
	percent, err = strconv.ParseFloat(num[1:], 64)
	if err != nil || math.IsNaN(percent) || math.IsInf(percent, 0) || percent < 0 || strings.HasPrefix(num[1:], "+") || strings.HasPrefix(num[1:], "-") {
		return false, 0, fmt.Errorf("threshold %q: want a sign, then a number of percent ≥ 0, e.g. +10%%", s)
	}
	return increase, percent, nil
}

// Verdict is the outcome of a gate.
type Verdict string

// Verdicts of a gate. A gate that cannot be judged does not fail the
// comparison unless Options.FailOnUnjudged is set: a run compared with
// itself must pass, though a p99 gate on 100 requests can never fire.
const (
	VerdictPass     Verdict = "pass"
	VerdictFail     Verdict = "fail"     // significant and past the threshold
	VerdictUnjudged Verdict = "unjudged" // no row, no values, no interval, or large but underpowered
)

// GateResult is a gate's verdict on a comparison.
type GateResult struct {
	Gate    Gate    `json:"gate"`
	Verdict Verdict `json:"verdict"`
	// Reason says why, in words.
	Reason string `json:"reason"`
}

// judge gives each gate its verdict on the rows of res.
func judge(res *Result, gates []Gate) []GateResult {
	out := make([]GateResult, 0, len(gates))
	for _, g := range gates {
		out = append(out, judgeGate(res, g))
	}
	return out
}

// judgeGate gives g its verdict on the rows of res.
func judgeGate(res *Result, g Gate) GateResult {
	gr := GateResult{Gate: g, Verdict: VerdictUnjudged}
	row := res.Row(g.Row)
	switch {
	case row == nil:
		gr.Reason = "no such row: ttfo rows need a request whose first answer token came after its first token"
	case row.Underpowered && g.past(row.Delta) && row.Tested && row.P < res.Alpha:
		gr.Verdict, gr.Reason = VerdictFail, "large change past the threshold: the distributions differ significantly, though the percentile's interval is too wide to exclude no change"
	case row.Underpowered && g.past(row.Delta):
		gr.Reason = "large but underpowered: past the threshold, but too few values to call it significant"
	case !row.Judged():
		gr.Reason = "cannot be judged: " + row.Note
	case !row.Significant:
		gr.Verdict, gr.Reason = VerdictPass, "no significant change"
	case !g.past(row.Delta):
		gr.Verdict, gr.Reason = VerdictPass, "significant change, not past the threshold"
	default:
		gr.Verdict, gr.Reason = VerdictFail, "significant change past the threshold"
	}
	return gr
}
