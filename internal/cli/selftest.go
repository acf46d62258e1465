package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"surge/internal/selftest"
	"surge/trace"
)

// selftestFlags are the flags of surge selftest.
type selftestFlags struct {
	concurrency []int
	duration    time.Duration
	cache       string
	noSave      bool
	inProcess   bool // the zero-delay server in surge's own process
	zeroServer  bool // be the zero-delay server of another selftest
}

func newSelftest() *cobra.Command {
	var f selftestFlags
	c := &cobra.Command{
		Use:   "selftest",
		Short: "Measure how many streamed requests per second surge itself sustains on this machine",
		Long: `selftest drives surge's own client and driver, with per-token timing and
records, against a zero-delay streaming server that it starts in a process
of its own (64-token responses, each written at once; --in-process keeps it
in surge's process), at a couple of concurrencies, and prints the streamed
requests and token events per second reached: what surge run reaches
against such a server.

The best figure is this machine's ceiling. It is saved (by default in the
user's cache directory, surge/selftest.json) with the CPU count and surge's
version, and surge run warns when a workload asks for more than half of it:
past that, surge's own work shows in the schedule lag and the latencies.

The server shares the machine's cores with the client, so the ceiling is
lower than against a server on another machine.`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, _ []string) error {
			if f.zeroServer {
				return serveZero(c.Context(), c.OutOrStdout(), c.InOrStdin())
			}
			return runSelftest(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), f)
		},
	}
	fs := c.Flags()
	fs.IntSliceVar(&f.concurrency, "concurrency", selftest.DefaultConcurrencies, "closed-loop concurrencies to measure")
	fs.DurationVar(&f.duration, "duration", selftest.DefaultDuration, "how long to drive each concurrency (the first fifth is warmup)")
	fs.StringVar(&f.cache, "cache", "", "file to save the result to (default: surge/selftest.json in the user's cache directory)")
	fs.BoolVar(&f.noSave, "no-save", false, "do not save the result")
	fs.BoolVar(&f.inProcess, "in-process", false, "run the zero-delay server inside surge's own process instead of a process of its own")
	fs.BoolVar(&f.zeroServer, "zero-server", false, "serve as the zero-delay server of another surge selftest, until stdin closes")
	fs.MarkHidden("zero-server")
	return c
}

// runSelftest measures, prints and saves the ceiling; warn says why the
// server runs in surge's own process when it could not start another.
func runSelftest(ctx context.Context, w, warn io.Writer, f selftestFlags) error {
	for _, n := range f.concurrency {
		if n <= 0 {
			return usageError{fmt.Errorf("--concurrency %d: must be positive", n)}
		}
	}
	if f.duration <= 0 {
		return usageError{fmt.Errorf("--duration %s: must be positive", f.duration)}
	}
	var target string
	if !f.inProcess {
		url, stop, err := startZeroServer(ctx)
		if err != nil {
			fmt.Fprintf(warn, "surge: selftest: %v; the server runs in surge's own process instead\n", err)
		} else {
			defer stop()
			target = url
		}
	}
	r, err := selftest.Run(ctx, selftest.Options{Concurrencies: f.concurrency, Duration: f.duration, Version: versionString(), Target: target})
	if err != nil {
		return err
	}
	printSelftest(w, r)
	if f.noSave {
		return nil
	}
	path, err := selftestPath(f.cache)
	if err != nil {
		return err
	}
	if err := selftest.Save(path, r); err != nil {
		return err
	}
	fmt.Fprintf(w, "saved to %s\n", path)
	return nil
}

// printSelftest writes the points and the ceiling.
func printSelftest(w io.Writer, r selftest.Result) {
	where := "in-process zero-delay server"
	if r.SeparateServer {
		where = "zero-delay server in a process of its own"
	}
	fmt.Fprintf(w, "%s · %d CPUs (GOMAXPROCS %d) · %d-token streams · %s, sharing the cores\n\n", r.Version, r.CPUs, r.Procs, r.Tokens, where)
	fmt.Fprintf(w, "%11s %14s %16s %8s %7s\n", "concurrency", "streamed req/s", "token events/s", "CPU", "failed")
	for _, p := range r.Points {
		fmt.Fprintf(w, "%11d %14s %16s %7.2fs %7d\n", p.Concurrency, thousands(p.RequestsPerS), thousands(p.TokenEventsPerS), p.CPUSeconds, p.Failed)
	}
	req, ev := r.Ceiling()
	fmt.Fprintf(w, "\nceiling     %s streamed req/s, %s token events/s; surge run warns above half of it\n", thousands(req), thousands(ev))
}

// thousands formats v rounded to a whole number with commas.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var out []byte
	for i, ch := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, ch)
	}
	return string(out)
}

// selftestPath is path, or the default cache file when it is empty.
func selftestPath(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	return selftest.CachePath()
}

// ceilingWarning returns the warning of the self-test cached at path ("":
// the default cache) for a workload of header h and sessions, or "" when
// the load is within half the ceiling, or no self-test of this build on
// this machine is cached.
func ceilingWarning(path string, h trace.Header, sessions []*trace.Session) string {
	path, err := selftestPath(path)
	if err != nil {
		return ""
	}
	r, err := selftest.Load(path)
	if err != nil || !r.Current(versionString()) {
		return ""
	}
	rate, concurrency := requestedLoad(h, sessions)
	return selftest.Warn(rate, concurrency, r)
}

// requestedLoad is the load a workload asks for: the most open-loop
// requests whose sessions start within any one second (its peak rate, in
// req/s, each session's turns counted at its start), and the closed-loop
// clients' concurrencies added up.
func requestedLoad(h trace.Header, sessions []*trace.Session) (rate float64, concurrency int) {
	closed := map[string]bool{}
	for _, c := range h.Clients {
		if c.Concurrency > 0 {
			closed[c.Name] = true
			concurrency += c.Concurrency
		}
	}
	type start struct{ atUS, turns int64 }
	var starts []start
	for _, s := range sessions {
		if !closed[s.Client] {
			starts = append(starts, start{s.AtUS, int64(len(s.Turns))})
		}
	}
	slices.SortFunc(starts, func(a, b start) int { return int(min(max(a.atUS-b.atUS, -1), 1)) })
	// A window [starts[i].atUS, starts[i].atUS + 1 s) for each i, two
	// pointers: j is the first start past the window.
	var in, most int64
	j := 0
	for i := range starts {
		for ; j < len(starts) && starts[j].atUS < starts[i].atUS+1_000_000; j++ {
			in += starts[j].turns
		}
		most = max(most, in)
		in -= starts[i].turns
	}
	return float64(most), concurrency
}
