package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"surge/internal/selftest"
	"surge/sim/virtual"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"surge/client"
	"surge/driver"
	"surge/metrics"
	"surge/report"
	"surge/trace"
)

type runFlags struct {
	gen       genFlags
	target    string
	api       string
	model     string
	apiKeyEnv string
	out       string
	noStream  bool
	http2     bool
	maxConc   int
	drop      bool
	timeout   time.Duration
	drain     time.Duration
	spin      time.Duration
	salt      string

	engineModel string // built-in engine, when there is no target
	builtin     bool   // the target is the built-in engine, started by this run
	shown       string // the records header's target, without credentials
	engineShown string // the records header's engine: the built-in engines' names
	gpu         string
	tp          int
	engine      engineFlags
	robust      robustFlags
	slos        sloFlags    // run only (sweep has its own --slo)
	shards      shardFlags  // run only
	liveAddr    string      // run only
	scrape      scrapeFlags // run only
}

func newRun() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "run SPEC|TRACE [--target URL|MODEL=URL,...]",
		Short: "Drive a workload against an OpenAI-compatible server and report what happened",
		Long: `run sends a workload (a spec, compiled in memory, or a trace from surge gen)
to an OpenAI-compatible server at the offsets its schedule gives, records
every request as it finishes, and prints a report.

It writes DIR/records.jsonl (one line per request, flushed as the run goes,
so an interrupted run keeps what it saw), DIR/report.txt and DIR/report.json.

--target is one server for every request, or a server per model:
--target llama=http://h1:8000,qwen=http://h2:8000 sends each request to the
server of the model it names (after --model). A key is a model name as the
workload sends it, or a client name (that client's models); *=URL is the
server of every other model. Every model of the workload needs a server.

Without --target it starts the built-in engine (surge serve) on loopback
ports, one per model of the workload, each serving that model's name, and
drives them: --engine-model, --gpu and --tp choose what they simulate (by
default each model itself if the catalog knows it, else Llama-3.1-8B), and
--max-num-seqs, --max-num-batched-tokens, --no-prefix-caching,
--gpu-memory-utilization and --max-model-len set their engines as they set
vllm serve's (they are refused with --target).
Ctrl-C stops scheduling, waits briefly for requests in flight, and reports
the run as interrupted; a second Ctrl-C ends surge at once.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runRun(c, args[0], f) },
	}
	f.register(c.Flags())
	f.slos.register(c.Flags())
	f.scrape.register(c.Flags())
	f.shards.register(c.Flags())
	c.Flags().StringVar(&f.liveAddr, "metrics-addr", "", "serve surge's own Prometheus metrics of the run at this address's /metrics while it goes, e.g. 127.0.0.1:9464")
	return c
}

// register adds the flags of a run: what to send, where, and the
// built-in engine's settings when there is no --target.
func (f *runFlags) register(fs *pflag.FlagSet) {
	f.gen.register(fs)
	fs.StringVar(&f.target, "target", "", "base URL of the server, e.g. http://127.0.0.1:8000, or one per model: MODEL=URL,...[,*=URL] (MODEL: a model or client of the workload)")
	fs.StringVar(&f.api, "api", "", "chat or completions, overriding the workload's")
	fs.StringVar(&f.model, "model", "", "model name to send, overriding the workload's")
	fs.StringVar(&f.apiKeyEnv, "api-key-env", "", "name of the environment variable holding the API key")
	fs.StringVarP(&f.out, "output", "o", "", "directory for records and report (default surge-run-TIME)")
	fs.BoolVar(&f.noStream, "no-stream", false, "send non-streaming requests")
	fs.BoolVar(&f.http2, "http2", false, "use HTTP/2 (h2c for http:// targets)")
	fs.IntVar(&f.maxConc, "max-concurrency", 0, "cap on requests in flight for open-loop clients (0: none)")
	fs.BoolVar(&f.drop, "drop", false, "at the cap, drop and count requests instead of queueing them")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "per-request deadline")
	fs.DurationVar(&f.drain, "drain", time.Minute, "how long to wait for requests in flight after the schedule ends")
	fs.DurationVar(&f.spin, "spin", 0, "stop sleeping this long before each open-loop send and spin until it is due: schedule lag of tens of µs instead of hundreds, at the cost of up to a core (e.g. 1.5ms)")
	f.robust.register(fs)
	fs.StringVar(&f.salt, "salt", "", "nonce put before every conversation so no earlier run's prefix cache is hit: none, or a nonce to repeat (default: a new one per run, unless the spec says salt: none)")
	fs.StringVar(&f.engineModel, "engine-model", "", "without --target: model every built-in engine simulates (default: each engine's model of the workload, if in the catalog, else "+defaultEngineModel+")")
	fs.StringVar(&f.gpu, "gpu", defaultEngineGPU, "without --target: accelerator the built-in engine simulates")
	fs.IntVar(&f.tp, "tp", 1, "without --target: GPUs (tensor parallelism) of the built-in engine")
	f.engine.register(fs, "without --target: ")
}

func runRun(c *cobra.Command, path string, f runFlags) error {
	if err := f.check(c.Flags()); err != nil {
		return err
	}
	key, err := apiKey(f.apiKeyEnv)
	if err != nil {
		return err
	}
	shard, startAt, err := f.shards.parse(time.Now())
	if err != nil {
		return err
	}
	whole, err := loadWorkload(c.Context(), path, f.gen, c.Flags(), c.InOrStdin())
	if err != nil {
		return specFailure(c, path, err)
	}
	if err := f.slos.apply(&whole.header); err != nil {
		return err
	}
	in, err := shardOf(whole, shard)
	if err != nil {
		return err
	}
	if msg := ceilingWarning("", in.header, in.sessions); msg != "" {
		fmt.Fprintln(c.ErrOrStderr(), "surge: "+msg)
	}
	base, routes, stop, err := servers(c.ErrOrStderr(), &f, in)
	if err != nil {
		return err
	}
	defer stop()
	cl, err := client.NewRouter(client.RouterConfig{
		Config: f.robust.client(client.Config{BaseURL: base, APIKey: key, MaxConns: maxConns(in, f.maxConc), HTTP2: f.http2, Timeout: f.timeout}),
		Routes: routes,
	})
	if err != nil {
		return usageError{fmt.Errorf("--target: %w", err)}
	}
	defer cl.Close()
	salt, saltTokens := runSalt(shardSalt(f.salt, shard, startAt), in.header)
	f.salt = salt
	expand, err := expander(c.ErrOrStderr(), in.header)
	if err != nil {
		return err
	}
	d, err := driver.New(driver.Config{
		Client: cl, Stream: !f.noStream, API: f.api, Model: f.model,
		MaxConcurrency: f.maxConc, Drop: f.drop, Drain: f.drain, Spin: f.spin,
		Retry:  f.robust.retry(in.header.Seed),
		Warmup: time.Duration(in.header.WarmupUS) * time.Microsecond,
		Salt:   salt, SaltTokens: saltTokens,
		// Only the built-in engine knows the planned reasoning lengths.
		ReasoningHint: f.builtin,
		Expand:        expand,
	}, in.header, in.sessions)
	if err != nil {
		return err
	}
	dir, err := runDir(f.out)
	if err != nil {
		return err
	}
	if err := writeBundleTrace(dir, whole); err != nil {
		return fmt.Errorf("writing the bundle's trace: %w", err)
	}
	server := probeServer(c.Context(), base, routes, key)
	start := startAt
	if start.IsZero() {
		start = time.Now()
	}
	stopScrape, err := startScrape(c.Context(), c.ErrOrStderr(), f.scrape, base, dir, start)
	if err != nil {
		return err
	}
	h := runHeader(in, f, start)
	h.Shard = shard
	liveSink, stopLive, err := serveLive(c.ErrOrStderr(), f.liveAddr, d, shard)
	if err != nil {
		stopScrape()
		return err
	}
	end, err := execute(c.Context(), c.ErrOrStderr(), d, h, dir, liveSink)
	stopLive()
	stopScrape()
	if err != nil {
		return err
	}
	sum, err := writeReports(c, dir, report.HTMLInput{Prompt: promptsOf(in.sessions)})
	if err != nil {
		return err
	}
	rec := runRecord{target: f.shown, server: server, salt: salt, start: start, end: end}
	if err := writeManifest(c.Context(), dir, in, rec); err != nil {
		return fmt.Errorf("writing the bundle's manifest: %w", err)
	}
	if end.Interrupted {
		return errInterrupted
	}
	if sum.All.Sent > 0 && sum.All.OK == 0 {
		return fmt.Errorf("no request succeeded (%d sent): see the errors line above and %s", sum.All.Sent, filepath.Join(dir, "records.jsonl"))
	}
	return f.slos.verdict(sum)
}

// check refuses flags out of range or at odds with each other; changed
// says which flags were given.
func (f runFlags) check(changed interface{ Changed(string) bool }) error {
	if err := f.engine.check(); err != nil {
		return usageError{err}
	}
	if err := f.robust.check(); err != nil {
		return usageError{err}
	}
	if f.target != "" {
		for _, name := range engineFlagNames() {
			if changed.Changed(name) {
				return usageError{fmt.Errorf("--%s sets the built-in engine, which runs only without --target", name)}
			}
		}
	}
	switch {
	case f.target == "" && f.apiKeyEnv != "":
		return usageError{errors.New("--api-key-env needs --target: the built-in engine takes no key")}
	case f.tp < 1:
		return usageError{fmt.Errorf("--tp %d: want 1 or more GPUs", f.tp)}
	case f.api != "" && f.api != "chat" && f.api != "completions":
		return usageError{fmt.Errorf("--api %q: want chat or completions", f.api)}
	case f.maxConc < 0:
		return usageError{fmt.Errorf("--max-concurrency %d: want 0 (no cap) or more", f.maxConc)}
	case f.drop && f.maxConc == 0:
		return usageError{errors.New("--drop needs --max-concurrency: there is no cap to drop at")}
	}
	if _, err := parseTarget(f.target); err != nil {
		return usageError{err}
	}
	return nil
}

// servers resolves where the run's requests go: the --target URL, the
// --target routes for the workload's models, or the built-in engines it
// starts without --target (f.builtin is then set). It sets f.shown and
// returns the default base URL, the routes by model, and a function that
// stops the engines it started.
func servers(w io.Writer, f *runFlags, in *workloadInput) (string, map[string]string, func(), error) {
	if f.target == "" {
		e, err := startEmbedded(w, *f, in)
		if err != nil {
			return "", nil, nil, err
		}
		f.builtin, f.shown, f.engineShown = true, targetName(e.base, e.routes), e.name()
		return e.base, e.routes, e.stop, nil
	}
	t, err := parseTarget(f.target)
	if err != nil {
		return "", nil, nil, usageError{err}
	}
	var routes map[string]string
	if t.url == "" {
		if routes, err = t.resolve(modelsOf(in, f.model)); err != nil {
			return "", nil, nil, usageError{err}
		}
	}
	f.shown = targetName(t.url, routes)
	return t.url, routes, func() {}, nil
}

// apiKey reads the API key from the named environment variable, so the key
// never appears on a command line or in any file surge writes.
func apiKey(env string) (string, error) {
	if env == "" {
		return "", nil
	}
	key := os.Getenv(env)
	if key == "" {
		return "", usageError{fmt.Errorf("--api-key-env %s: that environment variable is empty or unset", env)}
	}
	return key, nil
}

// maxConns sizes each server's connection pool to the most requests that
// can be in flight at once.
func maxConns(in *workloadInput, capped int) int {
	if capped > 0 {
		return capped
	}
	n := 256
	for _, c := range in.header.Clients {
		n += c.Concurrency
	}
	return n
}

// redact removes credentials from a URL before it is printed or recorded.
func redact(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	return u.String()
}

func runDir(dir string) (string, error) {
	if dir == "" {
		dir = "surge-run-" + time.Now().Format("20060102-150405")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating run directory: %w", err)
	}
	return dir, nil
}

// execute runs the driver, streaming records to DIR/records.jsonl under
// header h (whose Start is the run's start) and to also, when set.
func execute(ctx context.Context, stderr io.Writer, d *driver.Driver, h trace.RunHeader, dir string, also driver.Sink) (trace.RunEnd, error) {
	file, err := os.Create(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		return trace.RunEnd{}, fmt.Errorf("creating records file: %w", err)
	}
	defer file.Close()
	rw, err := trace.NewRecordWriter(file, h)
	if err != nil {
		return trace.RunEnd{}, err
	}
	var sink driver.Sink = rw
	if also != nil {
		sink = tee{rw, also}
	}
	stopProgress := showProgress(stderr, d)
	cpu0, cpuErr := selftest.ReadCPU()
	end, err := d.Run(ctx, h.Start, sink)
	stopProgress()
	if err != nil {
		return end, fmt.Errorf("run: %w", err)
	}
	if cpu1, err := selftest.ReadCPU(); err == nil && cpuErr == nil {
		end.ClientCPUUS = cpu1.Sub(cpu0).Total().Microseconds()
		end.ClientCPUs = runtime.GOMAXPROCS(0)
	}
	if err := rw.Close(end); err != nil {
		return end, fmt.Errorf("writing records: %w", err)
	}
	return end, file.Close()
}

// tee writes each record to both of its sinks.
type tee [2]driver.Sink

func (t tee) Write(r *trace.Record) error {
	if err := t[0].Write(r); err != nil {
		return err
	}
	return t[1].Write(r)
}

func runHeader(in *workloadInput, f runFlags, start time.Time) trace.RunHeader {
	h := trace.RunHeader{
		Tool: versionString(), WorkloadHash: in.hash, SpecHash: in.header.SpecHash,
		Seed: in.header.Seed, Tokenizer: in.header.Tokenizer, Target: f.shown,
		API: f.api, Start: start, WarmupUS: in.header.WarmupUS, SLO: in.header.SLO,
		ClosedLoop: closedLoop(in.header), Salt: f.salt, PrefixReuse: impliedReuse(in),
		FaultWindows: in.header.FaultWindows, Engine: f.engineShown, SLOConfidence: in.sloConfidence,
	}
	return h
}

// closedLoop names the trace's clients that have no schedule.
func closedLoop(h trace.Header) []string {
	var names []string
	for _, c := range h.Clients {
		if c.Concurrency > 0 {
			names = append(names, c.Name)
		}
	}
	return names
}

// showProgress prints a live progress line to w while a run goes, when w
// is a terminal; it returns a function that stops it.
func showProgress(w io.Writer, d *driver.Driver) func() {
	if !isTerminal(w) {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				fmt.Fprint(w, "\r\033[K")
				return
			case <-tick.C:
				fmt.Fprint(w, "\r\033[K"+progressLine(d.Progress()))
			}
		}
	}()
	return func() { cancel(); <-done }
}

func progressLine(p driver.Progress) string {
	return fmt.Sprintf("%6.1fs  sent %d  in flight %d  rate %.1f/s (target %.1f/s)  errors %d  p50 TTFT %v",
		p.Elapsed.Seconds(), p.Sent, p.InFlight, p.AchievedRate, p.TargetRate, p.Errors, p.TTFTp50.Round(time.Millisecond))
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// writeReports reads the run's records back, exactly as `surge report`
// would, writes the report files (see writeReportFiles) and prints the
// text report to stdout.
func writeReports(c *cobra.Command, dir string, html report.HTMLInput) (*metrics.Summary, error) {
	sum, text, err := writeReportFiles(c.ErrOrStderr(), dir, html)
	if err != nil {
		return nil, err
	}
	_, err = io.WriteString(c.OutOrStdout(), text)
	return sum, err
}

// writeReportFiles reads the records in dir back, with the server's
// metrics when DIR/server_metrics.jsonl holds them, and writes
// DIR/report.txt, DIR/report.json and DIR/report.html, the last with
// html's prompts and server samples. It returns the summary and the text
// report.
func writeReportFiles(warn io.Writer, dir string, html report.HTMLInput) (*metrics.Summary, string, error) {
	rs, err := readRecordFiles(warn, []string{dir})
	if err != nil {
		return nil, "", err
	}
	sum := summarize(rs, true)
	server, engine, err := serverView(dir, sum)
	if err != nil {
		fmt.Fprintf(warn, "surge: %v (the report leaves the server's metrics out)\n", err)
	}
	if html.Server == nil {
		html.Server = server
	}
	html.Summary, html.Records, html.Engine, html.Title = sum, rs, engine, "surge run "+filepath.Base(dir)
	html.Warn = warnChart(warn)
	var text strings.Builder
	if err := textReport(&text, sum, engine); err != nil {
		return nil, "", err
	}
	files := map[string]func(io.Writer) error{
		"report.txt":  func(w io.Writer) error { _, err := io.WriteString(w, text.String()); return err },
		"report.json": func(w io.Writer) error { return report.JSONEngine(w, sum, engine) },
		"report.html": func(w io.Writer) error { return report.HTML(w, html) },
	}
	for name, write := range files {
		if err := writeFile(filepath.Join(dir, name), write); err != nil {
			return nil, "", err
		}
	}
	return sum, text.String(), nil
}

// writeFile creates path and fills it with fill.
func writeFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// impliedReuse is the prefix-cache reuse of in's sessions, in vLLM's
// default blocks of 16 tokens.
func impliedReuse(in *workloadInput) *trace.Reuse {
	r := virtual.ImpliedReuse(in.sessions, 16)
	return &r
}

// promptsOf looks up the prompt of a request among sessions: the new user
// message of the turn.
func promptsOf(sessions []*trace.Session) func(client string, session, turn int) string {
	type key struct {
		client string
		index  int
	}
	byKey := make(map[key]*trace.Session, len(sessions))
	for _, s := range sessions {
		byKey[key{s.Client, s.Index}] = s
	}
	return func(client string, session, turn int) string {
		s := byKey[key{client, session}]
		if s == nil || turn < 0 || turn >= len(s.Turns) {
			return ""
		}
		return s.Turns[turn].Prompt
	}
}
