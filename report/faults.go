package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"surge/metrics"
	"surge/trace"
)

// faults writes the fault report: how the server answered each kind of
// fault the run injected, and what each storm or burst did to the healthy
// requests.
func (p *printer) faults(s *metrics.Summary) {
	f := s.Faults
	if f == nil {
		return
	}
	p.field("faults", "injected on purpose; every figure above leaves the requests that carried one out")
	if len(f.Classes) > 0 {
		t := &table{left: map[int]bool{0: true, 3: true, 4: true}}
		t.add("kind", "n", "ok", "statuses", "errors", "answer p50", "p99")
		t.add("", "")
		for _, c := range f.Classes {
			msg := ""
			if len(c.Messages) > 0 {
				msg = fmt.Sprintf("most common error: %q ×%d", clip(c.Messages[0].Text, 60), c.Messages[0].Count)
			}
			t.add(c.Kind, count(c.Requests), count(c.OK), statusCell(c.ByStatus), classCell(c.ByClass),
				ms(c.AnswerP50US)+" ms", ms(c.AnswerP99US)+" ms")
			t.add("", msg)
		}
		p.noted(t, "  ")
	}
	for _, w := range f.Windows {
		indent := "  "
		for _, l := range wrapWords(windowLine(w), p.cols()-4) {
			p.line("%s%s", indent, l)
			indent = "    " // under the first line, indented
		}
	}
}

// windowLine describes a storm's or burst's effect in a sentence.
func windowLine(w metrics.FaultImpact) string {
	at := time.Duration(w.AtUS) * time.Microsecond
	var what string
	if w.Kind == trace.FaultStorm {
		what = fmt.Sprintf("storm at %v (client %s): %s of the requests in flight cancelled, %s of them", at, w.Client, pct(w.Fraction), count(w.Faulted))
	} else {
		what = fmt.Sprintf("burst ×%g at %v for %v (client %s)", w.Factor, at, time.Duration(w.ForUS)*time.Microsecond, w.Client)
	}
	line := fmt.Sprintf("%s: healthy TTFT+lag p50 %s ms before, %s ms during (p99 %s), %s ms outside every window",
		what, ms(w.BaselineP50US), ms(w.DuringP50US), ms(w.DuringP99US), ms(w.OutsideP50US))
	switch {
	case w.BaselineP50US == 0:
		return line + "; no baseline to judge recovery by"
	case w.Recovered:
		return line + fmt.Sprintf("; back within 10%% of before %v after it", (time.Duration(w.RecoveryUS)*time.Microsecond).Round(time.Millisecond))
	}
	return line + "; not back within 10% of before by the end of the run"
}

// statusCell lists HTTP statuses with their counts: "400 ×3, 200 ×1".
func statusCell(by map[int]int) string {
	var parts []string
	for _, st := range slices.Sorted(maps.Keys(by)) {
		name := fmt.Sprint(st)
		if st == 0 {
			name = "none"
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", name, by[st]))
	}
	return strings.Join(parts, ", ")
}

// classCell lists error classes with their counts: "http 3".
func classCell(by map[string]int) string {
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(by)) {
		parts = append(parts, fmt.Sprintf("%s %d", c, by[c]))
	}
	return strings.Join(parts, ", ")
}

// faultGrid is the HTML table of the fault classes; nil without any.
func faultGrid(f *metrics.Faults) *grid {
	if f == nil || len(f.Classes) == 0 {
		return nil
	}
	g := &grid{Head: []string{"fault", "requests", "ok", "statuses", "errors", "answer p50 ms", "answer p99 ms", "most common error"}}
	for _, c := range f.Classes {
		msg := ""
		if len(c.Messages) > 0 {
			msg = fmt.Sprintf("%s (×%d)", c.Messages[0].Text, c.Messages[0].Count)
		}
		g.add(c.Kind, count(c.Requests), count(c.OK), statusCell(c.ByStatus), classCell(c.ByClass), ms(c.AnswerP50US), ms(c.AnswerP99US), msg)
	}
	return g
}

// windowLines describe each storm's and burst's effect.
func windowLines(f *metrics.Faults) []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, w := range f.Windows {
		out = append(out, windowLine(w))
	}
	return out
}
