// Package harness is a test harness: everything a measured run needs,
// wired. Run takes a workload, sends it to a server (or to built-in
// engines it starts), and leaves an evidence bundle in the directory it
// is given: the trace, the records, the server's metrics, the reports and
// the manifest. It chooses no path, reads no environment variable,
// handles no signal and never exits: a cancelled context stops the run,
// which is then reported as interrupted.
package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"surge/bundle"
	"surge/bundle/scrape"
	"surge/client"
	"surge/driver"
	"surge/metrics"
	"surge/trace"
)

// Config is one measured run.
type Config struct {
	// Workload is what to send, whole; Shard, when set, sends its part.
	Workload *Workload
	Shard    *trace.Shard
	// StartAt is when the schedule starts (zero: now), so that shards
	// started apart start together; Run refuses one more than
	// MaxStartLate past.
	StartAt time.Time

	// Dir is the bundle's directory, created if need be. Without one,
	// Records receives the records file and nothing else is written:
	// no trace, reports, manifest or server metrics (the target is not
	// scraped); the Result still has the text report. The records are
	// then also kept in memory, to report from.
	Dir     string
	Records io.Writer
	// Log receives warnings and progress messages; nil discards them.
	Log io.Writer
	// Progress, when set, receives a live progress line while the run
	// goes (a terminal): elapsed, % of the schedule, ETA, the counters.
	Progress io.Writer
	// ProgressEvery, without Progress, writes that line to Log this
	// often (0: never), for logs that cannot show a live line.
	ProgressEvery time.Duration
	// TextWidth is the width of the Result's text report, a terminal's
	// (report.WidthFor); 0 means report.TextWidth, the width of the
	// bundle's report.txt whatever this is.
	TextWidth int

	// Virtual, when set, runs the workload through the built-in engine
	// in virtual time instead: Target, Engine, Servers, the client and
	// the driver's settings are then unused.
	Virtual *Virtual
	// Servers, when set, are servers connected before (Connect), shared
	// by several runs, which Run leaves open; Target and Engine are then
	// unused.
	Servers *Servers
	// Target is the server's base URL, or MODEL=URL pairs separated by
	// commas (a key may also be a client of the workload, or * for the
	// rest); "" starts Engine's built-in engines instead.
	Target string
	Engine Engine
	// Client sets the HTTP client: the API key, timeouts, HTTP/2, TLS,
	// the response cap. Run sets its base URL and, when zero, its pool.
	Client client.Config

	API string // one of openai.APIs, overriding the workload's
	// ExtraBody is a JSON object merged into every request's body, over
	// the members the workload's clients give (--extra-body).
	ExtraBody JSONObject
	Model     string // the model to send, overriding the workload's
	// NoStream sends non-streaming requests.
	NoStream       bool
	MaxConcurrency int  // cap on open-loop requests in flight (0: none)
	Drop           bool // at the cap, drop requests instead of queueing
	// Drain is how long to wait for requests in flight after the
	// schedule ends (0: the driver's default); Spin how long before each
	// open-loop send to stop sleeping and spin until it is due (0: none).
	Drain, Spin time.Duration
	// Retry is the retry policy; Run seeds its jitter with the
	// workload's seed.
	Retry driver.RetryPolicy
	// NoPreflight skips the preflight: before the schedule starts, each
	// server's /v1/models must list the models the workload sends it
	// (when it lists any) and one small request per server and API must
	// succeed, or Run returns an UnreachableError.
	NoPreflight bool
	// ReadyCheckTimeout, when positive, waits up to this long before the
	// preflight for every server to answer GET /v1/models with anything
	// but a server error, as a server still loading its model does not,
	// asking again with backoff; then the run goes on (vllm bench serve's
	// --ready-check-timeout-sec). 0 does not wait.
	ReadyCheckTimeout time.Duration
	// MaxErrorRate, when positive, stops the run once at least
	// MinAbortRequests requests have finished and more than this
	// fraction of them failed: the run is recorded and reported as
	// aborted, and its Verdict is an AbortedError.
	MaxErrorRate float64
	// Salt is the nonce before every conversation: "" a new one (unless
	// the workload says none), SaltNone for none, else the nonce itself.
	Salt string

	// Ceiling is the file of a saved self-test (surge selftest's): Run
	// warns on Log when the workload asks more of the client than half
	// the ceiling it measured ("": no warning).
	Ceiling string

	// Watch, when set, sees every record as it finishes.
	Watch driver.Sink
	// Bare writes only the records, the reports and the server's metrics
	// scraped beside them: no trace, manifest or probe (a sweep's points,
	// whose sweep is the bundle).
	Bare bool
	// NoTrace leaves the trace out of the bundle of a simulation
	// generated as it runs (LoadOptions.Stream): the manifest's spec and
	// seed make it again byte for byte (surge gen), the records' workload
	// hash checks it, and a run of millions of requests does not write
	// tens of GB of prompts. The HTML report then shows no prompts.
	NoTrace bool

	Scrape   Scrape
	LiveAddr string // where to serve the run's own metrics ("": nowhere)

	// FailOnSLO makes a verdict short of a pass the Result's Verdict;
	// FailOnInvalid a questionable measurement.
	FailOnSLO, FailOnInvalid bool

	// Tool, Command and Host are what the records and the manifest say
	// ran, and where; Command is redacted before it is written.
	Tool    string
	Command []string
	Host    bundle.Host

	kept *bytes.Buffer // without a Dir, the records written to Records
}

// bare reports whether c's run writes only its records and reports:
// Bare, or no Dir.
func (c *Config) bare() bool { return c.Bare || c.Dir == "" }

// makeDir creates c.Dir, when there is one.
func makeDir(c *Config) error {
	if c.Dir == "" {
		return nil
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("creating run directory: %w", err)
	}
	return nil
}

// Result is what a run saw.
type Result struct {
	Dir     string
	Summary *metrics.Summary
	End     trace.RunEnd
	Report  string // the text report, as in the bundle's report.txt but Config.TextWidth wide
	Target  string // where the requests went, without credentials
	// Scrapes say how a bare run's scrapes of the server's metrics went
	// (a sweep's point stops scraping a target that has no endpoint).
	Scrapes scrape.Stats
	// Verdict is why the run counts as failed, or nil: an AbortedError,
	// ErrInterrupted, a NoSuccessError, a QuestionableError, ErrNoSLO or
	// an SLOError.
	Verdict error
}

// ErrInterrupted is the Verdict of a run whose context was cancelled:
// what it saw was recorded and reported.
var ErrInterrupted = errors.New("interrupted")

// ErrNoSLO is the Verdict of a run asked to fail on its SLOs when the
// workload has none.
var ErrNoSLO = errors.New("--fail-on-slo: the workload has no SLO (give --slo or an slo block)")

// AbortedError is the Verdict of a run that stopped itself early under
// Config.MaxErrorRate: Reason says how many of its requests failed.
type AbortedError struct{ Reason string }

func (e AbortedError) Error() string { return "run aborted: " + e.Reason }

// ConfigError is an error in the Config rather than in the run.
type ConfigError struct{ Err error }

func (e ConfigError) Error() string { return e.Err.Error() }
func (e ConfigError) Unwrap() error { return e.Err }

// NoSuccessError is the Verdict of a run in which requests were sent and
// none succeeded.
type NoSuccessError struct {
	Sent    int
	Records string // the records file
}

func (e NoSuccessError) Error() string {
	return fmt.Sprintf("no request succeeded (%d sent): see the errors line above and %s", e.Sent, e.Records)
}

// QuestionableError is the Verdict of a questionable measurement under
// FailOnInvalid: its measurement line says why.
type QuestionableError struct{ Line string }

func (e QuestionableError) Error() string { return e.Line }

// SLOError is the Verdict of SLOs that did not pass under FailOnSLO.
type SLOError struct{ Failed []string }

func (e SLOError) Error() string { return "SLO not met: " + strings.Join(e.Failed, "; ") }

// verdict is the Verdict of a run that ended with end and summary sum.
// A questionable measurement comes before the SLOs: it is why an SLO
// verdict cannot be trusted.
func verdict(cfg *Config, sum *metrics.Summary, interrupted bool) error {
	switch {
	case trace.EndingOf(sum.End) == trace.EndAborted:
		return AbortedError{sum.End.Aborted}
	case interrupted:
		return ErrInterrupted
	case sum.All.Sent > 0 && sum.All.OK == 0:
		return NoSuccessError{Sent: sum.All.Sent, Records: recordsName(cfg)}
	case cfg.FailOnInvalid && !sum.Measurement.Valid():
		return QuestionableError{sum.Measurement.Line()}
	case !cfg.FailOnSLO:
		return nil
	case len(sum.All.SLOs) == 0:
		return ErrNoSLO
	}
	var failed []string
	for _, c := range sum.All.SLOs {
		if c.Verdict != metrics.VerdictPass {
			failed = append(failed, fmt.Sprintf("%s %s: %s", c.Metric, metrics.PercentileName(c.Percentile), c.Verdict))
		}
	}
	if len(failed) > 0 {
		return SLOError{failed}
	}
	return nil
}
