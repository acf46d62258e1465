package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"surge/bundle"
	"surge/metrics"
	"surge/trace"
)

// BundleText writes what the bundle b, called name, holds for people: how
// far its run got, what its manifest says of the run (or, without one,
// its records' span), whether its trace is the run's workload, the check
// v of every file, the files it lacks and a line of its records' figures.
func BundleText(w io.Writer, name string, b *bundle.Bundle, v *bundle.Verification) error {
	p := &printer{w: w}
	field := func(label, format string, args ...any) {
		p.line("%-10s %s", label, fmt.Sprintf(format, args...))
	}
	field("bundle", "%s", name)
	field("state", "%s", b.State())
	if m := b.Manifest; m != nil {
		manifestFields(field, m)
	} else if rs := b.Records; rs != nil {
		field("run", "%s", runSpan(rs.Header.Start, rs.End))
	}
	field("workload", "%s", workloadLine(b, v))
	field("files", "%s", filesLine(v))
	if missing := b.Missing(); len(missing) > 0 {
		field("missing", "%s", strings.Join(missing, ", "))
	}
	if rs := b.Records; rs != nil {
		line := recordsLine(metrics.Summarize(rs, metrics.Options{}))
		if b.RecordsErr != nil {
			line += " (" + b.RecordsErr.Error() + ")"
		}
		field("records", "%s", line)
	}
	return p.err
}

// manifestFields writes what the manifest m says of the run.
func manifestFields(field func(label, format string, args ...any), m *bundle.Manifest) {
	field("tool", "%s", m.Tool)
	field("command", "%s", strings.Join(m.Command, " "))
	field("target", "%s%s", m.Target, serverText(m.Server))
	field("host", "%d CPUs, %s/%s %s", m.Host.CPUs, m.Host.OS, m.Host.Arch, m.Host.Kernel)
	ended := ""
	if mark := endMark(m.Ending()); mark != "" {
		ended = ", " + strings.ToLower(mark)
	}
	field("run", "%s – %s (%s), warmup %s%s", m.Start.Format(time.RFC3339), m.End.Format(time.RFC3339),
		m.End.Sub(m.Start).Round(time.Millisecond), time.Duration(m.WarmupUS)*time.Microsecond, ended)
	if m.Spec != nil {
		field("spec", "%s %s", m.Spec.Path, m.SpecHash)
	}
}

// runSpan says when a run without a manifest started and, from its end
// line, when it ended.
func runSpan(start time.Time, end *trace.RunEnd) string {
	if end == nil {
		return start.Format(time.RFC3339) + " – (no end line)"
	}
	s := fmt.Sprintf("%s – %s (%s)", start.Format(time.RFC3339), end.End.Format(time.RFC3339), end.End.Sub(start).Round(time.Millisecond))
	if m := endMark(trace.EndingOf(end)); m != "" {
		s += ", " + strings.ToLower(m)
	}
	return s
}

// workloadLine says whether the bundle's trace is the run's workload.
func workloadLine(b *bundle.Bundle, v *bundle.Verification) string {
	switch {
	case !b.Has(bundle.TraceFile):
		return v.WantHash + " (no trace.jsonl)"
	case v.TraceHash == "":
		return v.WantHash + " (trace.jsonl unreadable)"
	case v.WantHash == "":
		return v.TraceHash + " (trace.jsonl; nothing to check it against)"
	case v.TraceHash != v.WantHash:
		return fmt.Sprintf("%s ≠ trace.jsonl's %s", v.WantHash, v.TraceHash)
	case b.Manifest == nil:
		return v.WantHash + " (trace.jsonl matches the records header)"
	}
	return v.WantHash + " (trace.jsonl matches)"
}

// filesLine describes each file's check in a line.
func filesLine(v *bundle.Verification) string {
	var cells []string
	for _, c := range v.Files {
		switch c.Status {
		case bundle.Verified:
			cells = append(cells, fmt.Sprintf("%s %s ✓", c.Name, byteSize(c.Bytes)))
		case bundle.Mismatch:
			cells = append(cells, c.Name+" ✗")
		case bundle.Missing:
			cells = append(cells, c.Name+" missing")
		default:
			cells = append(cells, fmt.Sprintf("%s %s %s", c.Name, byteSize(c.Bytes), c.Status))
		}
	}
	return strings.Join(cells, " · ")
}

// serverText describes what the target said of itself: its model first,
// then its version headers in order.
func serverText(s *bundle.Server) string {
	switch {
	case s == nil:
		return ""
	case s.Error != "":
		return " (" + s.Error + ")"
	}
	var parts, headers []string
	if s.Model != "" {
		parts = append(parts, "model "+s.Model)
	}
	for name, v := range s.Headers {
		headers = append(headers, name+": "+v)
	}
	slices.Sort(headers)
	parts = append(parts, headers...)
	return " (" + strings.Join(parts, "; ") + ")"
}

// recordsLine summarises a run's records in a line: how many were
// measured and succeeded, and the verdict of each SLO.
func recordsLine(s *metrics.Summary) string {
	line := fmt.Sprintf("%d measured, %d ok", s.All.Requests, s.All.OK)
	for _, c := range s.All.SLOs {
		line += fmt.Sprintf(" · %s %s %s", c.Metric, metrics.PercentileName(c.Percentile), c.Verdict)
	}
	return line
}

// byteSize renders n bytes for people.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
