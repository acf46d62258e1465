package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"surge/bundle"
	"surge/harness"
)

// runFlags are the flags of a run; those a harness.Config takes as
// they are set its fields.
type runFlags struct {
	cfg       harness.Config
	gen       genFlags
	apiKeyEnv string
	out       string
	engine    engineFlags
	robust    robustFlags
	slos      sloFlags    // run only (sweep has its own --slo)
	shards    shardFlags  // run only
	scrape    scrapeFlags // run only
	quick     quickFlags  // run only: no SPEC
}

func newRun() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "run [SPEC|TRACE] [--target URL|MODEL=URL,...]",
		Short: "Drive a workload against an OpenAI-compatible server and report what happened",
		Long: `run sends a workload (a spec, compiled in memory, or a trace from surge gen)
to an OpenAI-compatible server at the offsets its schedule gives, records
every request as it finishes, and prints a report.

Without SPEC, vllm bench serve's flags build the spec (quick mode):
  surge run --target http://127.0.0.1:8000 --model M --random-input-len 1024 \
    --random-output-len 128 --request-rate 10 --num-prompts 600
runs 600 requests of 1024 tokens in and 128 out, Poisson at 10/s
(--burstiness: gamma gaps); --request-rate inf (the default) sends them
as fast as possible, --max-concurrency at a time. --print-spec prints the
spec instead, for surge run SPEC.

It writes DIR/records.jsonl (one line per request, flushed as the run goes,
so an interrupted run keeps what it saw), DIR/report.txt and DIR/report.json.

--target is one server for every request, or a server per model:
--target llama=http://h1:8000,qwen=http://h2:8000 sends each request to the
server of the model it names (after --model). A key is a model name as the
workload sends it, or a client name (that client's models); *=URL is the
server of every other model. Every model of the workload needs a server.

Without --target it starts the built-in engine (surge serve) on loopback,
one per model of the workload; --engine-model, --gpu, --tp and vllm
serve's engine flags set what it simulates.
Every request (inference, probe, scrape) takes --insecure, --header, the
timeouts and the environment's proxy; credentials go to the target's
origin only and are printed and recorded nowhere (docs/RELIABILITY.md).
Ctrl-C stops scheduling, waits briefly for requests in flight, and reports
the run as interrupted; a second Ctrl-C ends surge at once.`,
		Args: maxArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runRun(c, append(args, "")[0], f) },
	}
	f.register(c.Flags())
	f.slos.register(c.Flags())
	f.scrape.register(c.Flags())
	f.shards.register(c.Flags())
	f.quick.register(c.Flags())
	c.Flags().StringVar(&f.cfg.LiveAddr, "metrics-addr", "", "serve surge's own Prometheus metrics of the run at this address's /metrics while it goes, e.g. 127.0.0.1:9464")
	return c
}

// register adds the flags of a run: what to send, where, and the
// built-in engine's settings when there is no --target.
func (f *runFlags) register(fs *pflag.FlagSet) {
	f.gen.register(fs)
	fs.StringVar(&f.cfg.Target, "target", "", "base URL of the server, e.g. http://127.0.0.1:8000, or one per model: MODEL=URL,...[,*=URL] (MODEL: a model or client of the workload)")
	fs.StringVar(&f.cfg.API, "api", "", "chat, completions, responses, messages, embeddings, rerank or score, overriding the workload's")
	fs.Var(&f.cfg.ExtraBody, "extra-body", `JSON object merged into every request's body, over the workload's extra_body, e.g. '{"priority": 1}'`)
	fs.StringVar(&f.cfg.Model, "model", "", "model name to send, overriding the workload's")
	fs.StringVar(&f.apiKeyEnv, "api-key-env", "", "name of the environment variable holding the API key")
	fs.StringVarP(&f.out, "output", "o", "", "directory for records and report (default surge-run-TIME)")
	fs.BoolVar(&f.cfg.NoStream, "no-stream", false, "send non-streaming requests")
	fs.BoolVar(&f.cfg.Client.HTTP2, "http2", false, "use HTTP/2 (h2c for http:// targets)")
	fs.IntVar(&f.cfg.MaxConcurrency, "max-concurrency", 0, "cap on requests in flight for open-loop clients (0: none)")
	fs.BoolVar(&f.cfg.Drop, "drop", false, "at the cap, drop and count requests instead of queueing them")
	fs.DurationVar(&f.cfg.Client.Timeout, "timeout", 10*time.Minute, "per-request deadline")
	fs.DurationVar(&f.cfg.Drain, "drain", time.Minute, "how long to wait for requests in flight after the schedule ends")
	fs.BoolVar(&f.cfg.NoPreflight, "no-preflight", false, "skip the preflight: before the schedule each server's /v1/models must list the models sent to it and one 1-token request per server and API must succeed, else surge exits 3")
	fs.DurationVar(&f.cfg.ReadyCheckTimeout, "ready-check-timeout", 0, "before the preflight, wait up to this long for each server to answer /v1/models (not 503 or refused, as while loading a model), asking again with backoff; 0: do not wait")
	fs.Float64Var(&f.cfg.MaxErrorRate, "max-error-rate", 0, fmt.Sprintf("stop the run (exit 3, recorded as aborted) once more than this fraction of its requests failed, judged from the %dth finished request on (0: never)", harness.MinAbortRequests))
	fs.DurationVar(&f.cfg.ProgressEvery, "progress", 10*time.Second, "when stderr is not a terminal, a progress line this often (elapsed, % of the schedule, ETA); on a terminal a live line; 0: neither")
	fs.DurationVar(&f.cfg.Spin, "spin", 0, "stop sleeping this long before each open-loop send and spin until it is due: schedule lag of tens of µs instead of hundreds, at the cost of up to a core (e.g. 1.5ms)")
	f.robust.register(fs, &f.cfg.Client, &f.cfg.Retry)
	fs.StringVar(&f.cfg.Salt, "salt", "", "nonce put before every conversation so no earlier run's prefix cache is hit: none, or a nonce to repeat (default: a new one per run, unless the spec says salt: none)")
	fs.StringVar(&f.cfg.Engine.Model, "engine-model", "", "without --target: model every built-in engine simulates (default: each engine's model of the workload, if in the catalog, else "+harness.DefaultEngineModel+")")
	fs.StringVar(&f.cfg.Engine.GPU, "gpu", harness.DefaultEngineGPU, "without --target: accelerator the built-in engine simulates")
	fs.IntVar(&f.cfg.Engine.TP, "tp", 1, "without --target: GPUs (tensor parallelism) of the built-in engine")
	f.engine.register(fs, "without --target: ")
}

func runRun(c *cobra.Command, path string, f runFlags) error {
	if err := f.check(c); err != nil {
		return err
	}
	key, err := apiKey(f.apiKeyEnv)
	if err != nil {
		return err
	}
	shard, startAt, err := f.shards.parse()
	if err != nil {
		return err
	}
	in, err := f.load(c, path)
	if in == nil || err != nil {
		return err
	}
	if err := f.slos.apply(&in.Header); err != nil {
		return err
	}
	cfg := f.config(c, in, key)
	output(c, &cfg, f.out, "surge-run-")
	cfg.Shard, cfg.StartAt = shard, startAt
	cfg.Ceiling, _ = selftestPath("") // no cache directory: no warning
	cfg.Scrape = f.scrape.config()
	cfg.FailOnSLO, cfg.FailOnInvalid = f.slos.failOn, f.slos.failOnInvalid
	res, err := harness.Run(c.Context(), cfg)
	return printRun(c, res, err)
}

// config is the harness configuration of the run flags for workload w,
// with API key key, logging to c's stderr.
func (f runFlags) config(c *cobra.Command, w *harness.Workload, key string) harness.Config {
	cfg := f.cfg
	cfg.Workload, cfg.Log, cfg.Engine.Settings = w, c.ErrOrStderr(), f.engine.settings()
	cfg.Client.APIKey = key
	cfg.Client = f.robust.client(cfg.Client)
	cfg.Tool, cfg.Command, cfg.Host = versionString(), commandLine(c.Context()), bundle.ThisHost(kernelRelease())
	if isTerminal(c.ErrOrStderr()) && cfg.ProgressEvery > 0 {
		cfg.Progress = c.ErrOrStderr()
	}
	return cfg
}

// cliError is err as the command line reports it: an interrupted run
// was reported already, and exits 130; exitCode maps the others.
func cliError(err error) error {
	if errors.Is(err, harness.ErrInterrupted) {
		return errInterrupted
	}
	return err
}

// check refuses flags out of range or at odds with each other, before
// the workload is read (harness.Config.Check, and what only the command
// line can tell).
func (f runFlags) check(c *cobra.Command) error {
	cfg := f.config(c, nil, "")
	output(c, &cfg, f.out, "surge-run-")
	if err := errors.Join(f.engine.check(), f.robust.check(cfg.Retry), cfg.Check()); err != nil {
		return usageError{err}
	}
	if f.cfg.Target != "" {
		for _, name := range engineFlagNames() {
			if c.Flags().Changed(name) {
				return usageError{fmt.Errorf("--%s sets the built-in engine, which runs only without --target", name)}
			}
		}
	}
	switch {
	case f.cfg.Target == "" && f.apiKeyEnv != "":
		return usageError{errors.New("--api-key-env needs --target: the built-in engine takes no key")}
	case f.cfg.Engine.TP < 1:
		return usageError{fmt.Errorf("--tp %d: want 1 or more GPUs", f.cfg.Engine.TP)}
	}
	return nil
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

// runDirName is dir, or prefix and the time when it is empty.
func runDirName(dir, prefix string) string {
	if dir == "" {
		dir = prefix + time.Now().Format("20060102-150405")
	}
	return dir
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
