package metrics

import (
	"fmt"
	"strconv"
	"strings"

	"surge/trace"
)

// Kinds of Warning.
const (
	WarnRun    = "run"    // the run or its file is incomplete
	WarnWindow = "window" // no measured request, or an empty window
	WarnLag    = "lag"    // surge sent behind its schedule
	WarnSample = "sample" // too few values for a percentile's interval
	WarnSLO    = "slo"    // an SLO that cannot be judged
)

// Warning is a caveat on a summary's figures. Client names the scope it
// concerns (empty for the whole run); P is the percentile a WarnSample
// warning is about.
type Warning struct {
	Kind   string  `json:"kind"`
	Client string  `json:"client,omitempty"`
	P      float64 `json:"p,omitempty"`
	Text   string  `json:"text"`
}

// String is the warning as a footnote: its text, prefixed by its client.
func (w Warning) String() string {
	if w.Client != "" {
		return "client " + w.Client + ": " + w.Text
	}
	return w.Text
}

// endLineDisagrees opens the warning of a records file whose end line
// counts other requests than the file holds, which the measurement's run
// check fails on.
const endLineDisagrees = "the end line counts"

// runWarnings are the caveats on the run as a whole; lagWarnUS is the
// p99 schedule lag above which surge is said to have sent late.
func runWarnings(s *Summary, recs []*trace.Record, lagWarnUS int64) []Warning {
	var ws []Warning
	add := func(kind, format string, args ...any) {
		ws = append(ws, Warning{Kind: kind, Text: fmt.Sprintf(format, args...)})
	}
	switch trace.EndingOf(s.End) {
	case trace.EndDied:
		add(WarnRun, "no end line: the run died before finishing; figures cover the %d records it wrote", len(recs))
	case trace.EndAborted:
		add(WarnRun, "aborted after %d of %d scheduled requests were sent: %s", s.End.Sent, s.End.Scheduled, s.End.Aborted)
	case trace.EndInterrupted:
		add(WarnRun, "interrupted after %d of %d scheduled requests were sent", s.End.Sent, s.End.Scheduled)
	}
	if s.End != nil {
		sentN, dropped := 0, 0
		for _, r := range recs {
			if r.ErrorClass == trace.ErrDropped {
				dropped++
			} else {
				sentN++
			}
		}
		if sentN != s.End.Sent || dropped != s.End.Dropped {
			add(WarnRun, endLineDisagrees+" %d sent and %d dropped, but the file holds %d and %d records", s.End.Sent, s.End.Dropped, sentN, dropped)
		}
	}
	switch sh := s.Header.Shard; {
	case sh == nil:
	case sh.Merged == nil:
		add(WarnRun, "this run sent shard %s of the workload: the figures cover its sessions only; merge every shard's records for the whole run", sh)
	case len(sh.Merged) < sh.Count:
		add(WarnRun, "merged %d of %d shards (%v): the figures cover part of the workload", len(sh.Merged), sh.Count, sh.Merged)
	}
	if s.All.Sent == 0 {
		add(WarnWindow, "no measured request was sent (%d records, %d of them warmup)", len(recs), s.Warmup)
	} else if s.Window.Seconds() == 0 {
		add(WarnWindow, "the measurement window is empty: rates are not computed")
	}
	if q, ok := s.All.Latency.Lag.At(99); ok && q.Value > float64(lagWarnUS) {
		add(WarnLag, "surge sent behind schedule: p99 schedule lag %s ms; the client or its concurrency cap was saturated, so read ttft+lag and e2e+lag", trimFloat(q.Value/1000))
	}
	return ws
}

// sampleWarnings warns, once per percentile, about the metrics of a scope
// with too few values for that percentile's confidence interval.
func (c *calc) sampleWarnings(client string, l *Latency) {
	for _, p := range standardPercentiles {
		var short []string
		minN := 0
		for _, m := range l.Metrics() {
			q, ok := m.At(p)
			if !ok || q.CI != nil || q.MinN == 0 {
				continue
			}
			short = append(short, fmt.Sprintf("%s n=%d", m.Name, m.N))
			minN = q.MinN
		}
		if len(short) > 0 {
			c.warn(WarnSample, client, p, "%s of %s: too few values for a %s%% confidence interval, which needs n ≥ %d",
				PercentileName(p), strings.Join(short, ", "), trimFloat(c.opts.Level*100), minN)
		}
	}
}

// trimFloat formats v with as few digits as represent it exactly.
func trimFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
