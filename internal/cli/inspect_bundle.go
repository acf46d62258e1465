package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"surge/bundle"
	"surge/metrics"
	"surge/trace"
)

// isBundle reports whether path is a directory holding a bundle, whole or
// partial: a manifest, records or a trace.
func isBundle(path string) bool {
	if path == "-" {
		return false
	}
	for _, name := range []string{bundle.ManifestFile, bundle.RecordsFile, bundle.TraceFile} {
		if _, err := os.Stat(filepath.Join(path, name)); err == nil {
			return true
		}
	}
	return false
}

// notBundle explains why the directory at path is not a bundle; nil when
// path is not a directory.
func notBundle(path string) error {
	info, err := os.Stat(path)
	if path == "-" || err != nil || !info.IsDir() {
		return nil
	}
	return fmt.Errorf("%s is a directory, neither a trace nor a bundle (no %s, %s or %s)", path, bundle.ManifestFile, bundle.RecordsFile, bundle.TraceFile)
}

// inspectBundle prints what the bundle in dir holds and what it lacks,
// what its manifest says of the run, the check of every file present
// against the manifest and of the trace's workload hash, and a summary of
// the records. It fails when a check does; a missing file is said, not
// failed.
func inspectBundle(w io.Writer, dir string) error {
	b, err := bundle.Open(os.DirFS(dir))
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	v := b.Verify()
	p := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-10s %s\n", label, fmt.Sprintf(format, args...))
	}
	p("bundle", "%s", dir)
	p("state", "%s", b.State())
	if m := b.Manifest; m != nil {
		writeManifestLines(p, m)
	} else if rs := b.Records; rs != nil {
		p("run", "%s", runSpan(rs.Header.Start, rs.End))
	}
	p("workload", "%s", workloadLine(b, v))
	p("files", "%s", filesLine(v))
	if missing := b.Missing(); len(missing) > 0 {
		p("missing", "%s", strings.Join(missing, ", "))
	}
	if rs := b.Records; rs != nil {
		line := recordsLine(summarize(rs, false))
		if b.RecordsErr != nil {
			line += " (" + b.RecordsErr.Error() + ")"
		}
		p("records", "%s", line)
	}
	switch problems := strings.Join(v.Problems, "\n  "); {
	case v.OK():
		return nil
	case !b.Has(bundle.ManifestFile):
		return fmt.Errorf("%s is a run directory without %s, and what it holds does not check out:\n  %s", dir, bundle.ManifestFile, problems)
	default:
		return fmt.Errorf("bundle %s does not check out:\n  %s", dir, problems)
	}
}

// writeManifestLines prints what the manifest m says of the run.
func writeManifestLines(p func(label, format string, args ...any), m *bundle.Manifest) {
	p("tool", "%s", m.Tool)
	p("command", "%s", strings.Join(m.Command, " "))
	p("target", "%s%s", m.Target, serverText(m.Server))
	p("host", "%d CPUs, %s/%s %s", m.Host.CPUs, m.Host.OS, m.Host.Arch, m.Host.Kernel)
	p("run", "%s – %s (%s), warmup %s%s", m.Start.Format(time.RFC3339), m.End.Format(time.RFC3339),
		m.End.Sub(m.Start).Round(time.Millisecond), time.Duration(m.WarmupUS)*time.Microsecond, map[bool]string{true: ", interrupted"}[m.Interrupted])
	if m.Spec != nil {
		p("spec", "%s %s", m.Spec.Path, m.SpecHash)
	}
}

// runSpan says when a run without a manifest started and, from its end
// line, when it ended.
func runSpan(start time.Time, end *trace.RunEnd) string {
	if end == nil {
		return start.Format(time.RFC3339) + " – (no end line)"
	}
	s := fmt.Sprintf("%s – %s (%s)", start.Format(time.RFC3339), end.End.Format(time.RFC3339), end.End.Sub(start).Round(time.Millisecond))
	if end.Interrupted {
		s += ", interrupted"
	}
	return s
}

// workloadLine says whether trace.jsonl is the run's workload.
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

// serverText describes what the target said of itself.
func serverText(s *bundle.Server) string {
	switch {
	case s == nil:
		return ""
	case s.Error != "":
		return " (" + s.Error + ")"
	}
	var parts []string
	if s.Model != "" {
		parts = append(parts, "model "+s.Model)
	}
	for name, v := range s.Headers {
		parts = append(parts, name+": "+v)
	}
	slices.Sort(parts[min(1, len(parts)):])
	return " (" + strings.Join(parts, "; ") + ")"
}

// recordsLine summarises a run's records in a line.
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
