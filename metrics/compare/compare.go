package compare

import (
	"errors"
	"fmt"

	"surge/metrics"
	"surge/trace"
)

// Defaults of Options.
const (
	DefaultAlpha     = 0.05
	DefaultResamples = 1000
	DefaultWindows   = 20
)

// ErrDifferentWorkload is wrapped by the error Compare returns for runs
// of different workload hashes when Options.AllowDifferentWorkload is
// not set.
var ErrDifferentWorkload = errors.New("the runs are of different workloads")

// Options configures Compare. The zero value tests at α = 0.05 with 1000
// bootstrap resamples from seed 0 and 20 throughput windows per run, and
// refuses runs of different workloads.
type Options struct {
	// Alpha is the significance level, in (0, 1); 0 means 0.05.
	// Confidence intervals are at level 1 − Alpha.
	Alpha float64
	// Resamples is the number of bootstrap resamples; 0 means 1000.
	Resamples int
	// Seed seeds the bootstrap; every seed gives a reproducible result.
	Seed uint64
	// Windows is how many equal windows each run's measurement window is
	// cut into for the throughput rows; 0 means 20.
	Windows int
	// AllowDifferentWorkload compares runs of different workload hashes
	// instead of refusing; Result.DifferentWorkload then says so.
	AllowDifferentWorkload bool
	// Gates are judged against the rows (see ParseGates).
	Gates []Gate
	// FailOnUnjudged makes a gate that cannot be judged fail the
	// comparison (Result.Failed); by default only a violated gate does.
	FailOnUnjudged bool
	// BaseName and CandidateName label the runs in reports, e.g. paths.
	BaseName, CandidateName string
}

// withDefaults fills the zero fields of o.
func (o Options) withDefaults() Options {
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Windows == 0 {
		o.Windows = DefaultWindows
	}
	return o
}

// Check reports every option out of its range, a zero option taking its
// default; Compare refuses such options. Errors name the command line's
// flag where surge compare has one.
func (o Options) Check() error {
	o = o.withDefaults()
	var errs []error
	if !(o.Alpha > 0 && o.Alpha < 1) {
		errs = append(errs, fmt.Errorf("--alpha %g: want a level in (0, 1), e.g. 0.05", o.Alpha))
	}
	if o.Resamples < 1 {
		errs = append(errs, fmt.Errorf("resamples %d: want 1 or more", o.Resamples))
	}
	if o.Windows < 2 {
		errs = append(errs, fmt.Errorf("windows %d: want 2 or more", o.Windows))
	}
	return errors.Join(errs...)
}

// Run describes one side of a comparison.
type Run struct {
	Name         string `json:"name,omitempty"`
	WorkloadHash string `json:"workload_hash"`
	SpecHash     string `json:"spec_hash,omitempty"`
	Target       string `json:"target"`
	// Engine names the built-in engine the run drove (engineOf), "" for
	// an outside server.
	Engine   string `json:"engine,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Requests int    `json:"requests"` // measured: sent or dropped, warmup excluded
	OK       int    `json:"ok"`       // measured successful requests
	// Window is the run's measurement window (metrics.Window).
	Window metrics.Window `json:"window"`
	// Interrupted is true when the run did not finish (metrics.Summary's);
	// Ending says how it ended (trace.EndingOf): aborted, interrupted or
	// died.
	Interrupted bool         `json:"interrupted,omitempty"`
	Ending      trace.Ending `json:"ending,omitempty"`
}

// Result is a comparison of a candidate run against a base run.
type Result struct {
	Base      Run     `json:"base"`
	Candidate Run     `json:"candidate"`
	Alpha     float64 `json:"alpha"`
	Resamples int     `json:"resamples"`
	Seed      uint64  `json:"seed"`
	Windows   int     `json:"windows"`
	// DifferentWorkload is true when the workload hashes differ and the
	// comparison was made anyway (Options.AllowDifferentWorkload).
	DifferentWorkload bool         `json:"different_workload,omitempty"`
	Rows              []Row        `json:"rows"`
	Gates             []GateResult `json:"gates,omitempty"`
	// FailOnUnjudged says unjudged gates count as failed (Options).
	FailOnUnjudged bool `json:"fail_on_unjudged,omitempty"`
	// Warnings are caveats on the comparison as a whole.
	Warnings []string `json:"warnings,omitempty"`
}

// Row returns the row named name (see Row.Name), or nil.
func (r *Result) Row(name string) *Row {
	for i := range r.Rows {
		if r.Rows[i].Name() == name {
			return &r.Rows[i]
		}
	}
	return nil
}

// Failed returns the gates that fail the comparison: those violated, and
// those unjudged when FailOnUnjudged is set.
func (r *Result) Failed() []GateResult {
	var out []GateResult
	for _, g := range r.Gates {
		if r.Fails(g) {
			out = append(out, g)
		}
	}
	return out
}

// Fails reports whether gate result g fails the comparison: it was
// violated, or it is unjudged and FailOnUnjudged is set.
func (r *Result) Fails(g GateResult) bool {
	return g.Verdict == VerdictFail || (g.Verdict == VerdictUnjudged && r.FailOnUnjudged)
}

// Unjudged counts the gates that could not be judged.
func (r *Result) Unjudged() int {
	n := 0
	for _, g := range r.Gates {
		if g.Verdict == VerdictUnjudged {
			n++
		}
	}
	return n
}

// Compare compares cand against base (see the package documentation for
// the method). It refuses runs of different workload hashes unless
// opts.AllowDifferentWorkload is set, and options out of range.
func Compare(base, cand *trace.Records, opts Options) (*Result, error) {
	if err := opts.Check(); err != nil {
		return nil, fmt.Errorf("comparing runs: %w", err)
	}
	o := opts.withDefaults()
	bh, ch := base.Header, cand.Header
	if bh.WorkloadHash != ch.WorkloadHash && !o.AllowDifferentWorkload {
		return nil, fmt.Errorf("%w: base %s, candidate %s", ErrDifferentWorkload, bh.WorkloadHash, ch.WorkloadHash)
	}
	res := &Result{
		Base: describeRun(base, o.BaseName), Candidate: describeRun(cand, o.CandidateName),
		Alpha: o.Alpha, Resamples: o.Resamples, Seed: o.Seed, Windows: o.Windows,
		DifferentWorkload: bh.WorkloadHash != ch.WorkloadHash, FailOnUnjudged: o.FailOnUnjudged,
	}
	res.Warnings = runWarnings(res)
	c := comparer{opts: o}
	res.Rows = append(res.Rows, c.latencyRows(base, cand)...)
	res.Rows = append(res.Rows, c.runRows(base, cand, res.Base.Window, res.Candidate.Window)...)
	res.Gates = judge(res, o.Gates)
	return res, nil
}

// describeRun summarises rs for the Result.
func describeRun(rs *trace.Records, name string) Run {
	s := metrics.Summarize(rs, metrics.Options{})
	return Run{
		Name: name, WorkloadHash: rs.Header.WorkloadHash, SpecHash: rs.Header.SpecHash,
		Target: rs.Header.Target, Engine: engineOf(rs.Header), Tool: rs.Header.Tool,
		Requests: s.All.Requests, OK: s.All.OK, Window: s.Window, Interrupted: s.Interrupted, Ending: trace.EndingOf(rs.End),
	}
}

// runWarnings are the caveats on what was compared.
func runWarnings(res *Result) []string {
	b, c := res.Base, res.Candidate
	var w []string
	if res.DifferentWorkload {
		w = append(w, fmt.Sprintf("different workloads compared anyway: base %s, candidate %s; differences may come from the workloads, not the servers",
			b.WorkloadHash, c.WorkloadHash))
	}
	differ := func(what, x, y string) {
		if x != y {
			w = append(w, fmt.Sprintf("%s differ: base %q, candidate %q", what, x, y))
		}
	}
	differ("spec hashes", b.SpecHash, c.SpecHash)
	w = append(w, targetWarnings(b, c)...)
	differ("surge versions", b.Tool, c.Tool)
	for _, side := range []struct {
		name string
		run  Run
	}{{"base", b}, {"candidate", c}} {
		switch side.run.Ending {
		case trace.EndAborted:
			w = append(w, fmt.Sprintf("the %s run aborted itself on its errors: it may lack its slowest requests", side.name))
		case trace.EndInterrupted, trace.EndDied:
			w = append(w, fmt.Sprintf("the %s run was interrupted or did not finish: it may lack its slowest requests", side.name))
		}
	}
	return w
}
