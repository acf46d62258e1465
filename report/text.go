package report

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"

	"surge/metrics"
	"surge/trace"
)

// textPercentiles are the percentile columns of the text latency table;
// p95 is in the JSON and CSV reports.
var textPercentiles = []float64{50, 90, 99, 99.9}

// rowNames are the text report's names of the latency distributions.
var rowNames = map[string]string{
	"ttft": "TTFT", "ttfo": "TTFO", "ttftc": "TTFTC", "itl": "ITL", "tpot": "TPOT/token", "e2e": "E2E",
	"ttft+lag": "TTFT+lag", "ttfo+lag": "TTFO+lag", "e2e+lag": "E2E+lag", "lag": "lag", "queue": "queue",
}

// Text writes s for a person to read in five seconds, in lines of at
// most TextWidth columns. First what ran and which requests count, then
// the verdicts: the measurement's (can the figures be trusted), the SLOs'
// (PASS, FAIL or SHORT of samples by MLPerf-style early stopping; TTFT,
// TTFO and E2E judged from the intended send time), throughput and
// goodput. Then a latency table in milliseconds with each percentile's
// confidence interval as "±x%" (the larger relative distance to either
// end; the interval itself in ms, "[lo, hi]", when that exceeds the
// value; "±∞" where the sample is too small for one); TTFO rows only when
// a reasoning channel set TTFO apart from TTFT. Then the client's own CPU
// use, errors with their most common messages, re-sent requests,
// token-count disagreements, the prefix-cache hit rate the server
// reported beside the one the workload implies, the server's
// speculative-decoding acceptance when it reported any, sessions when some have
// several requests (counts, then per complete session its duration,
// requests, LLM, tool and think time and context, and TTFT, TTFO and ITL
// of first turns apart from later ones; mean, p50, p90, p99 and max, no
// intervals), a per-client table when there are several clients, and the
// caveats that apply to this run as numbered footnotes.
func Text(w io.Writer, s *metrics.Summary) error { return TextAt(w, s, TextWidth) }

// TextAt is Text in lines of at most cols columns (a terminal's, see
// WidthFor), wrapping fields and footnotes to it and leaving out the
// latency table's highest percentiles when it would be wider.
func TextAt(w io.Writer, s *metrics.Summary, cols int) error {
	p := &printer{w: w, width: cols, notes: footnotes{width: cols}}
	p.header(s)
	p.measurement(s)
	p.slos(s)
	p.throughput(&s.All)
	p.goodput(s)
	p.latency(s)
	p.clientCPU(s)
	p.errors(&s.All)
	p.connections(&s.All)
	p.tokens(&s.All)
	p.cache(s)
	p.specDecode(s)
	p.faults(s)
	p.sessions(s)
	p.clients(s)
	p.styles(s)
	if p.err == nil {
		p.err = p.notes.write(w)
	}
	return p.err
}

// printer writes lines, keeping the first error.
type printer struct {
	w     io.Writer
	err   error
	width int // columns of a line; 0: TextWidth
	notes footnotes
}

// cols is the most columns a line of p takes.
func (p *printer) cols() int { return cmp.Or(p.width, TextWidth) }

// line writes one formatted line.
func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

// field writes a field of the report: its label, then parts joined by
// " · " and wrapped to the printer's width.
func (p *printer) field(label string, parts ...string) {
	for _, l := range fieldLines(p.cols(), label, parts...) {
		p.line("%s", l)
	}
}

// table writes t.
func (p *printer) table(t *table, indent string) {
	if p.err == nil {
		p.err = t.write(p.w, indent)
	}
}

// warned returns the footnote marks of the whole-run warnings of kind.
func (p *printer) warned(s *metrics.Summary, kind, client string) string {
	var marks string
	for _, w := range s.Warnings {
		if w.Kind == kind && w.Client == client {
			marks += p.notes.ref(w.Text)
		}
	}
	return marks
}

// header writes what ran and which requests count.
func (p *printer) header(s *metrics.Summary) {
	parts := []string{s.Header.Target}
	if s.Header.WorkloadHash != "" {
		parts = append(parts, "workload "+shortHash(s.Header.WorkloadHash))
	}
	parts = append(parts, num(float64(s.DurationUS)/1e6)+" s")
	if m := endMark(trace.EndingOf(s.End)); m != "" {
		parts = append(parts, m)
	}
	parts[len(parts)-1] += p.warned(s, metrics.WarnRun, "")
	p.field("run", parts...)
	a := &s.All
	p.field("requests",
		fmt.Sprintf("%s measured (%s warmup excluded): %s ok, %s failed, %s dropped",
			count(a.Requests), count(s.Warmup), count(a.OK), count(a.Errors.Failed), count(a.Errors.Dropped)),
		fmt.Sprintf("window %s–%s s%s", secs(s.Window.StartUS), secs(s.Window.EndUS), p.warned(s, metrics.WarnWindow, "")))
}

// measurement writes the verdict on the measurement, its reasons wrapped
// under it.
func (p *printer) measurement(s *metrics.Summary) {
	if s.Measurement == nil {
		return
	}
	for i, l := range wrapHang(s.Measurement.Line(), p.cols(), p.cols()-labelWidth) {
		if i > 0 {
			l = strings.Repeat(" ", labelWidth) + l
		}
		p.line("%s", l)
	}
}

// secs formats a microsecond offset in seconds to the millisecond.
func secs(us int64) string { return fmt.Sprintf("%.3f", float64(us)/1e6) }

// latency writes the latency table of all clients together, leaving out
// its highest percentiles (the JSON and CSV reports have them) when the
// table would be wider than the printer's width.
func (p *printer) latency(s *metrics.Summary) {
	p.line("")
	for ps := textPercentiles; ; ps = ps[:len(ps)-1] {
		saved := p.notes.clone()
		t := p.latencyTable(s, ps)
		if len(t.rows) == 1 {
			p.line("latency     no successful request")
			return
		}
		if t.width("") <= p.cols() || len(ps) <= 2 {
			p.table(t, "")
			p.line("")
			return
		}
		p.notes = saved
	}
}

// latencyTable is the latency table with the percentile columns ps.
func (p *printer) latencyTable(s *metrics.Summary, ps []float64) *table {
	t := &table{left: map[int]bool{}}
	head := []string{"ms", "n", "mean"}
	for _, q := range ps {
		t.left[len(head)+1] = true
		head = append(head, metrics.PercentileName(q), "")
	}
	t.add(append(head, "max")...)
	reasoning := reasoned(&s.All.Latency)
	for _, m := range s.All.Latency.Metrics() {
		if !reasoning && (m.Name == "ttfo" || m.Name == "ttfo+lag") {
			continue // TTFO is TTFT when no reasoning came first
		}
		if m.Name == "ttftc" && m.NotApplicable == metrics.NoToolCallsReason {
			continue // no reply called a tool
		}
		if m.NotApplicable != "" {
			t.add(rowNames[m.Name]+p.notes.ref(m.NotApplicable), "n/a")
			continue
		}
		if m.N == 0 || m.Name == "queue" && m.Max == 0 {
			continue // nothing measured, or no request ever queued
		}
		name := rowNames[m.Name]
		if m.Note != "" {
			name += p.notes.ref(m.Note)
		}
		if m.Name == "lag" {
			name += p.warned(s, metrics.WarnLag, "")
		}
		row := []string{name, count(m.N), ms(m.Mean)}
		for _, q := range ps {
			pc, _ := m.At(q)
			row = append(row, ms(pc.Value), p.interval(s, pc))
		}
		t.add(append(row, ms(m.Max))...)
	}
	return t
}

// reasoned reports whether a reasoning channel set TTFO apart from TTFT
// in l: TTFO (the first answer token) is never before TTFT (the first
// token of any kind), so the two distributions are equal, in count, mean
// and maximum, exactly when no answer came after a reasoning token.
// Without reasoning the text report leaves TTFO out: it would repeat TTFT.
func reasoned(l *metrics.Latency) bool {
	a, b := &l.TTFT, &l.TTFO
	return a.N != b.N || a.Mean != b.Mean || a.Max != b.Max
}

// interval is the confidence-interval cell of percentile q.
func (p *printer) interval(s *metrics.Summary, q metrics.Percentile) string {
	switch {
	case q.CI != nil:
		return spread(q)
	case q.MinN == 0:
		return "" // no interval by design; the row's note says why
	}
	return "±∞" + p.tooFew(s, q.P, q.MinN)
}

// tooFew is the mark of the footnote saying how many values the p-th
// percentile's interval needs, one note for every percentile. (The
// summary's warning says the same per metric; here the n column shows
// each metric's count.)
func (p *printer) tooFew(s *metrics.Summary, pc float64, minN int) string {
	return p.notes.tooFew(pc, minN, strconv.FormatFloat(s.Level*100, 'f', -1, 64))
}
