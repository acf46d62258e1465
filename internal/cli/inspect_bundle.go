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
)

// isBundle reports whether path is a directory holding a bundle manifest.
func isBundle(path string) bool {
	_, err := os.Stat(filepath.Join(path, bundle.ManifestFile))
	return err == nil
}

// notBundle explains why the directory at path, which has no manifest,
// is not a bundle; nil when path is not a directory.
func notBundle(path string) error {
	info, err := os.Stat(path)
	if err != nil || !info.IsDir() {
		return nil
	}
	if _, err := os.Stat(filepath.Join(path, "records.jsonl")); err == nil {
		return fmt.Errorf("%s is a run directory without %s: the run did not finish writing its bundle (surge report %s still reads its records)",
			path, bundle.ManifestFile, path)
	}
	return fmt.Errorf("%s is a directory, neither a trace nor a bundle (no %s)", path, bundle.ManifestFile)
}

// inspectBundle prints what the bundle in dir says of itself, checks
// every file against the manifest and the trace's workload hash against
// the manifest's, and summarises the records. It fails when a check does.
func inspectBundle(w, warn io.Writer, dir string) error {
	f, err := os.Open(filepath.Join(dir, bundle.ManifestFile))
	if err != nil {
		return err
	}
	m, err := bundle.Read(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	p := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-10s %s\n", label, fmt.Sprintf(format, args...))
	}
	p("bundle", "%s", dir)
	p("tool", "%s", m.Tool)
	p("command", "%s", strings.Join(m.Command, " "))
	p("target", "%s%s", m.Target, serverText(m.Server))
	p("host", "%d CPUs, %s/%s %s", m.Host.CPUs, m.Host.OS, m.Host.Arch, m.Host.Kernel)
	p("run", "%s – %s (%s), warmup %s%s", m.Start.Format(time.RFC3339), m.End.Format(time.RFC3339),
		m.End.Sub(m.Start).Round(time.Millisecond), time.Duration(m.WarmupUS)*time.Microsecond, map[bool]string{true: ", interrupted"}[m.Interrupted])
	if m.Spec != nil {
		p("spec", "%s %s", m.Spec.Path, m.SpecHash)
	}
	var problems []string
	hash, err := traceHash(filepath.Join(dir, "trace.jsonl"))
	switch {
	case err != nil:
		problems = append(problems, "trace.jsonl: "+err.Error())
		p("workload", "%s (trace.jsonl unreadable)", m.WorkloadHash)
	case hash != m.WorkloadHash:
		problems = append(problems, fmt.Sprintf("trace.jsonl has workload hash %s, the manifest says %s", hash, m.WorkloadHash))
		p("workload", "%s ≠ trace.jsonl's %s", m.WorkloadHash, hash)
	default:
		p("workload", "%s (trace.jsonl matches)", m.WorkloadHash)
	}
	problems = append(problems, checkFiles(p, dir, m)...)
	if rs, err := readRecordFiles(warn, []string{dir}); err == nil {
		p("records", "%s", recordsLine(summarize(rs, false)))
	}
	if len(problems) > 0 {
		return fmt.Errorf("bundle %s does not check out:\n  %s", dir, strings.Join(problems, "\n  "))
	}
	return nil
}

// checkFiles verifies each file the manifest names, printing a line of
// them, and returns the problems found.
func checkFiles(p func(label, format string, args ...any), dir string, m *bundle.Manifest) []string {
	names := make([]string, 0, len(m.Files))
	for name := range m.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	var cells, problems []string
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, filepath.Base(name)))
		if err == nil {
			err = m.Verify(name, f)
			f.Close()
		}
		if err != nil {
			problems = append(problems, err.Error())
			cells = append(cells, name+" ✗")
			continue
		}
		cells = append(cells, fmt.Sprintf("%s %s ✓", name, byteSize(m.Files[name].Bytes)))
	}
	p("files", "%s", strings.Join(cells, " · "))
	return problems
}

// traceHash is the workload hash of the trace file at path.
func traceHash(path string) (string, error) {
	in, err := readTraceFile(path)
	if err != nil {
		return "", err
	}
	return in.hash, nil
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
