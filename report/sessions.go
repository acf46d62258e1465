package report

import (
	"fmt"

	"surge/metrics"
)

// sessionRows name the per-session distributions in the text report,
// each with the unit its values are shown in: µs divided by scale.
var sessionRows = map[string]struct {
	label string
	scale float64
}{
	"duration":    {"duration s", 1e6},
	"requests":    {"requests", 1},
	"llm":         {"LLM s", 1e6},
	"llm_busy":    {"LLM busy s", 1e6},
	"tool":        {"tool s", 1e6},
	"think":       {"think s", 1e6},
	"max_context": {"context tokens (max)", 1},
	"ttft_first":  {"TTFT first turns ms", 1e3},
	"ttft_later":  {"TTFT later turns ms", 1e3},
	"ttfo_first":  {"TTFO first turns ms", 1e3},
	"ttfo_later":  {"TTFO later turns ms", 1e3},
	"itl_first":   {"ITL first turns ms", 1e3},
	"itl_later":   {"ITL later turns ms", 1e3},
}

// sessionPercentiles are the percentile columns of the sessions table.
var sessionPercentiles = []float64{50, 90, 99}

// sessions writes the session block of all clients, when the summary has
// one: the counts on one line, then a table of the complete sessions'
// distributions and of the per-request ones by opening and later turns,
// each row in the unit its label names, without intervals (the JSON and
// CSV reports have them). Tool and think rows are left out when no
// session waited.
func (p *printer) sessions(s *metrics.Summary) {
	ss := s.All.Sessions
	if ss == nil {
		return
	}
	line := fmt.Sprintf("%s measured (%s warmup excluded): %s complete, %s failed",
		count(ss.Sessions), count(ss.Warmup), count(ss.Complete), count(ss.Failed))
	if ss.Incomplete > 0 {
		line += fmt.Sprintf(", %s incomplete (a turn's record missing)", count(ss.Incomplete))
	}
	if ss.Deadlines > 0 {
		line += fmt.Sprintf("; %s of %s met their deadline", count(ss.DeadlinesMet), count(ss.Deadlines))
	}
	if ss.Note != "" {
		line += p.notes.ref(ss.Note)
	}
	p.line("")
	p.line("sessions    %s", line)
	t := &table{}
	head := []string{"per complete session", "n", "mean"}
	for _, q := range sessionPercentiles {
		head = append(head, metrics.PercentileName(q))
	}
	t.add(append(head, "max")...)
	for _, m := range ss.Metrics() {
		if m.N == 0 || (m.Name == "tool" || m.Name == "think") && m.Max == 0 {
			continue
		}
		name := sessionRows[m.Name].label
		if m.Name == "llm" {
			name += p.notes.ref("LLM: the sum of the session's request times (E2E), so parallel requests count each; LLM busy is the time with any of them in flight")
		}
		t.add(p.sessionRow(name, m)...)
	}
	t.add("per successful request")
	reasoning := reasoned(&s.All.Latency)
	for _, m := range ss.Steps() {
		if m.N == 0 || !reasoning && (m.Name == "ttfo_first" || m.Name == "ttfo_later") {
			continue // nothing measured, or TTFO that repeats TTFT
		}
		name := sessionRows[m.Name].label
		if m.Note != "" {
			name += p.notes.ref(m.Note)
		}
		t.add(p.sessionRow(name, m)...)
	}
	p.table(t, "  ")
}

// sessionRow is the table row of m, labelled name.
func (p *printer) sessionRow(name string, m *metrics.Metric) []string {
	scale := sessionRows[m.Name].scale
	// Requests and tokens are whole numbers: so are their percentiles.
	value := func(v float64) string { return num(v / scale) }
	if scale == 1 {
		value = func(v float64) string { return count(int64(v)) }
	}
	row := []string{name, count(m.N), num(m.Mean / scale)}
	for _, q := range sessionPercentiles {
		pc, _ := m.At(q)
		row = append(row, value(pc.Value))
	}
	return append(row, value(m.Max))
}

// sessions writes the session counts and distributions of a scope, when
// it has them.
func (c *csvRows) sessions(scope string, ss *metrics.Sessions) {
	if ss == nil {
		return
	}
	r := func(stat, value string) { c.row(scope, "sessions", "", stat, value, "") }
	r("sessions", i(ss.Sessions))
	r("complete", i(ss.Complete))
	r("failed", i(ss.Failed))
	r("incomplete", i(ss.Incomplete))
	r("warmup_excluded", i(ss.Warmup))
	if ss.Note != "" {
		r("note", ss.Note)
	}
	for _, m := range append(ss.Metrics(), ss.Steps()...) {
		c.metric(scope, "sessions", m)
	}
}
