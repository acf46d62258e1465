package harness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"

	"surge/bundle"
	"surge/client"
	"surge/driver"
	"surge/internal/selftest"
	"surge/report"
	"surge/trace"
)

// Run does what `surge run` does: it sends cfg's workload to the target
// (or to built-in engines it starts and stops), records every request
// in cfg.Dir (or to cfg.Records) as it finishes, scrapes the server's metrics, writes the
// reports and the manifest, and returns what the run saw. An error is a
// run that could not be made or recorded (a ConfigError for a bad
// Config, an UnreachableError for a target that failed the preflight);
// a run that was made but failed its checks, or was cancelled,
// returns its Result with the Verdict set. A run recorded whose report
// files or manifest could not all be written (a full disk) returns its
// Result, the text report included, and the error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if cfg.Workload == nil {
		return nil, ConfigError{errors.New("no workload to run")}
	}
	cfg.Log = cmp.Or[io.Writer](cfg.Log, io.Discard)
	if cfg.Virtual != nil {
		return runVirtual(ctx, cfg)
	}
	if err := cfg.Workload.materialize(ctx); err != nil {
		return nil, err
	}
	if late := time.Since(cfg.StartAt); !cfg.StartAt.IsZero() && late > MaxStartLate {
		return nil, ConfigError{fmt.Errorf("--start-at %s is %v in the past: start the shards again with a later instant", cfg.StartAt.Format(time.RFC3339), late.Round(time.Second))}
	}
	in, err := ShardOf(cfg.Workload, cfg.Shard)
	if err != nil {
		return nil, err
	}
	if msg := selftest.WarnFor(cfg.Ceiling, tool(&cfg), in.Header, in.Sessions); cfg.Ceiling != "" && msg != "" {
		fmt.Fprintln(cfg.Log, "surge: "+msg)
	}
	to := cfg.Servers
	if to == nil {
		if to, err = Connect(cfg, in); err != nil {
			return nil, err
		}
		defer to.Close()
		if err := preflight(ctx, &cfg, in, to); err != nil {
			return nil, err
		}
	}
	salt, err := runSalt(shardSalt(cfg.Salt, cfg.Shard, cfg.StartAt), in)
	if err != nil {
		return nil, err
	}
	expand, err := expander(cfg.Log, in)
	if err != nil {
		return nil, err
	}
	retry := cfg.Retry
	retry.Seed = in.Header.Seed
	d, err := driver.New(driver.Config{
		Client: to.client, Stream: !cfg.NoStream, API: cfg.API, Model: cfg.Model,
		MaxConcurrency: cfg.MaxConcurrency, Drop: cfg.Drop, Drain: cfg.Drain, Spin: cfg.Spin,
		Retry:  retry,
		Warmup: time.Duration(in.Header.WarmupUS) * time.Microsecond,
		Salt:   salt.text, SaltTokens: salt.tokens, Cut: salt.cut,
		// Only the built-in engine knows the planned reasoning lengths.
		ReasoningHint: to.builtin,
		Expand:        expand,
		ExtraBody:     cfg.ExtraBody,
	}, in.Header, in.Sessions)
	if se := (*driver.SaltError)(nil); errors.As(err, &se) {
		return nil, ConfigError{err}
	}
	if err != nil {
		return nil, err
	}
	if err := makeDir(&cfg); err != nil {
		return nil, err
	}
	if cfg.bare() {
		return bare(ctx, &cfg, d, in, to, header(&cfg, in, to, salt.text, time.Now()))
	}
	// From here a Result with the text report is returned whenever the
	// run was recorded, with the error of any file that could not be
	// written beside it.
	if err := writeTrace(cfg.Dir, cfg.Workload); err != nil {
		return nil, fmt.Errorf("writing the bundle's trace: %w", err)
	}
	probe := startProbe(ctx, cfg.Client, to, cfg.StartAt)
	start := cfg.StartAt
	if start.IsZero() {
		start = time.Now()
	}
	end, err := measure(ctx, &cfg, d, to, header(&cfg, in, to, salt.text, start))
	server := probe()
	if err != nil {
		return nil, err
	}
	res, err := result(&cfg, in, to, end)
	if res == nil {
		return nil, err
	}
	m := manifest(&cfg, in, to.shown, salt.text, start, end)
	m.Server = server
	if merr := bundle.WriteManifest(cfg.Dir, m); merr != nil {
		err = errors.Join(err, fmt.Errorf("writing the bundle's manifest: %w", merr))
	}
	return res, err
}

// bare is Run's bare run: the records and reports, and the server's
// metrics scraped beside them when there is a directory.
func bare(ctx context.Context, cfg *Config, d *driver.Driver, in *Workload, to *Servers, h trace.RunHeader) (*Result, error) {
	stopScrape, err := startScrape(ctx, cfg.Log, cfg.Scrape, cfg.Client, to, cfg.Dir, h.Start)
	if err != nil {
		return nil, err
	}
	end, err := record(ctx, cfg, d, h, cfg.Watch)
	scrapes := stopScrape()
	if err != nil {
		return nil, err
	}
	res, err := result(cfg, in, to, end)
	if res != nil {
		res.Scrapes = scrapes
	}
	return res, err
}

// measure runs the driver under header h, scraping the server's metrics
// and serving the run's own while it goes.
func measure(ctx context.Context, cfg *Config, d *driver.Driver, to *Servers, h trace.RunHeader) (trace.RunEnd, error) {
	stopScrape, err := startScrape(ctx, cfg.Log, cfg.Scrape, cfg.Client, to, cfg.Dir, h.Start)
	if err != nil {
		return trace.RunEnd{}, err
	}
	defer stopScrape()
	live, stopLive, err := serveLive(cfg.Log, cfg.LiveAddr, d, cfg.Shard)
	if err != nil {
		return trace.RunEnd{}, err
	}
	defer stopLive()
	var also driver.Sink = cfg.Watch
	switch {
	case live != nil && also != nil:
		also = tee{live, also}
	case live != nil:
		also = live
	}
	return record(ctx, cfg, d, h, also)
}

// result writes the reports of a run that ended with end and gives its
// Result, the verdict included, with finish's error when a report file
// could not be written.
func result(cfg *Config, in *Workload, to *Servers, end trace.RunEnd) (*Result, error) {
	res, err := finish(cfg, nil, report.HTMLInput{Prompt: Prompts(in.Sessions)}, nil)
	if res == nil {
		return nil, err
	}
	res.End, res.Target = end, to.shown
	res.Verdict = verdict(cfg, res.Summary, end.Interrupted)
	return res, err
}

// Servers are where a run's requests go, and the client that sends
// them; Connect opens them.
type Servers struct {
	base    string            // the default server's base URL
	routes  map[string]string // model → base URL
	shown   string            // the records header's target, without credentials
	engine  string            // the built-in engines' names, for the records header
	builtin bool              // the servers are built-in engines this run started
	client  *client.Router
	stop    func() // stops the engines
}

// Close closes the client and stops the engines.
func (s *Servers) Close() {
	s.client.Close()
	s.stop()
}

// Target is where the requests go, without credentials.
func (s *Servers) Target() string { return s.shown }

// Redact returns text without the credentials of any server, in any
// form, and without the user information of any URL: what a run logs and
// writes of what the servers said.
func (s *Servers) Redact(text string) string { return s.client.Redact(text) }

// Connect resolves cfg.Target for the models of in, or starts cfg.Engine's
// built-in engines without one, and opens the client; Close releases them.
func Connect(cfg Config, in *Workload) (*Servers, error) {
	cfg.Log = cmp.Or[io.Writer](cfg.Log, io.Discard)
	s, err := resolve(cfg, in)
	if err != nil {
		return nil, err
	}
	cc := cfg.Client
	cc.BaseURL = s.base
	if cc.MaxConns == 0 {
		cc.MaxConns = in.MaxConns(cfg.MaxConcurrency)
	}
	s.client, err = client.NewRouter(client.RouterConfig{Config: cc, Routes: s.routes})
	if err != nil {
		s.stop()
		return nil, ConfigError{fmt.Errorf("--target: %w", err)}
	}
	return s, nil
}

// resolve is connect without the client.
func resolve(cfg Config, in *Workload) (*Servers, error) {
	if cfg.Target == "" {
		e, err := startEmbedded(cfg.Log, cfg.Engine, cfg.Model, in)
		if err != nil {
			return nil, err
		}
		return &Servers{base: e.base, routes: e.routes, shown: targetName(e.base, e.routes), engine: e.name(), builtin: true, stop: e.stop}, nil
	}
	t, err := parseTarget(cfg.Target)
	if err != nil {
		return nil, ConfigError{err}
	}
	var routes map[string]string
	if t.url == "" {
		if routes, err = t.resolve(modelsOf(in, cfg.Model)); err != nil {
			return nil, ConfigError{err}
		}
	}
	return &Servers{base: t.url, routes: routes, shown: targetName(t.url, routes), stop: func() {}}, nil
}

// header is the records header of a run of in.
func header(cfg *Config, in *Workload, to *Servers, salt string, start time.Time) trace.RunHeader {
	return trace.RunHeader{
		Tool: tool(cfg), WorkloadHash: in.Hash, SpecHash: in.Header.SpecHash,
		Seed: in.Header.Seed, Tokenizer: in.Header.Tokenizer, Target: to.shown,
		API: cfg.API, Start: start, WarmupUS: in.Header.WarmupUS, SLO: in.Header.SLO,
		ClosedLoop: in.closedLoop(), Salt: salt, PrefixReuse: in.impliedReuse(),
		FaultWindows: in.Header.FaultWindows, Engine: to.engine, SLOConfidence: in.SLOConfidence,
		Shard: cfg.Shard,
	}
}

// tool is cfg.Tool, or "surge" when it is empty.
func tool(cfg *Config) string { return cmp.Or(cfg.Tool, "surge") }

// mainServer is the server a run's probe and scrape ask: the default
// server, or the first by model of several.
func (s *Servers) mainServer() string {
	if s.base != "" || len(s.routes) == 0 {
		return s.base
	}
	keys := make([]string, 0, len(s.routes))
	for k := range s.routes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return s.routes[keys[0]]
}

// sideClient is the HTTP client of a run's requests to the server at
// base beside the inference ones (the probe, the scrape): the inference
// client's options, its credentials for base's origin only
// (client.HTTPClient), timeout as each request's deadline.
func sideClient(cc client.Config, base string, timeout time.Duration) (*http.Client, error) {
	cc.BaseURL = base
	return client.HTTPClient(cc, timeout)
}

// withoutUser is u without its user information, the credentials a
// side client adds itself.
func withoutUser(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.User = nil
	return p.String()
}
