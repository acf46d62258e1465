package cli

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"surge/harness"
	"surge/sim/server"
)

// serveFlags are surge serve's flags, hw the engine harness.NewServer sets up.
type serveFlags struct {
	hw        harness.Engine
	addr      string
	port      int
	tokenizer string
	served    string
	faults    string
	faultSeed uint64
	engine    engineFlags
}

func newServe() *cobra.Command {
	var f serveFlags
	c := &cobra.Command{
		Use:   "serve --engine-model M --gpu G",
		Short: "Serve a simulated model on an OpenAI-compatible HTTP endpoint in real time",
		Long: `serve runs the built-in engine in real time behind an OpenAI-compatible HTTP
server: model M on TP GPUs of type G, with vLLM's continuous batching, KV
cache and prefix caching, and step times from the cost model. Point any
client or load generator (surge run --target URL) at it.

It serves POST /v1/chat/completions and /v1/completions (streaming or not),
GET /v1/models, /health and /metrics (vLLM's Prometheus metric names).
Prompts are counted with --tokenizer; generated text is simple words, one
token each. It listens on loopback port 8000 unless --port or --addr say
otherwise, and
serves until Ctrl-C. --max-num-seqs, --max-num-batched-tokens,
--no-prefix-caching, --gpu-memory-utilization and --max-model-len mean
what they mean to vllm serve.

Limits on clients: headers within 10 s and at most 64 KiB; a body within
1 min (else 408 and the connection closes) and at most 16 MiB (else 413).
Decoding and tokenizing a body costs about 70 times its size at the peak,
so bodies are decoded at most 16 MiB at a time (about 1.1 GiB), and at
most 256 MiB of bodies are held while being read or waiting; a request
that finds no room within 10 s gets 503 with Retry-After: 1. Memory is
handed back to the system after bodies of 1 MiB or more. Idle keep-alive
connections close after 2 min; streams are never cut by a write timeout.

--faults makes it misbehave on purpose, to test retry logic and surge's
own error handling without a broken real server. SPEC is a comma-separated
list of items:

  status=CODE          answer 400–599 instead (429 and 503 carry Retry-After)
  stall-headers=DUR    hold the request DUR before any response byte
  stall-stream=DUR     pause a stream DUR after some of its chunks
  reset                reset the TCP connection before any response byte
  reset-stream         cut the connection after some chunks of a stream
  broken-sse           write one malformed SSE event into a stream
  retry-after=DUR      Retry-After of injected 429/503 (default 1s; 0: none)
  restart=DOWN@AT      at AT after start, drop every request in flight,
                       empty the engine and refuse all but /metrics with
                       503 + Retry-After for DOWN

Each rule item takes an optional :PROB (0.05 or 5%; default 1, every
request) and @FROM-TO window of offsets since start (@10s-20s; @10s- is
open-ended; @10s-20s/1m repeats every minute). Each rule fires
independently per completion request; stream faults fire at a random token
of streamed requests only. Draws come from --fault-seed, so the same seed
and request order give the same faults. Every fault is counted in
surge:faults_injected_total{kind} on /metrics and logged to stderr. E.g.

  --faults 'status=429:0.1,status=503@10s-20s,retry-after=2s,reset:1%,stall-stream=5s:0.05,restart=5s@30s'`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, _ []string) error { return runServe(c, f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.hw.Model, "engine-model", "", "model from the sim catalog, e.g. llama-3.1-8b")
	deprecatedAlias(fs, "model", "engine-model")
	fs.StringVar(&f.hw.GPU, "gpu", "", "accelerator from the sim catalog, e.g. h100")
	fs.IntVar(&f.hw.TP, "tp", 1, "GPUs (tensor parallelism)")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8000", "address to listen on")
	fs.IntVar(&f.port, "port", 0, "port to listen on, at --addr's host (vllm serve's flag)")
	fs.StringVar(&f.tokenizer, "tokenizer", "o200k_base", "tokenizer counting prompt tokens: o200k_base, cl100k_base or a tokenizer.json path")
	fs.StringVar(&f.served, "served-model-name", "", "model name clients must send (default the catalog name)")
	fs.StringVar(&f.faults, "faults", "", "misbehave on purpose: comma-separated fault items (see above)")
	fs.Uint64Var(&f.faultSeed, "fault-seed", 1, "seed of the --faults draws")
	f.engine.register(fs, "")
	return c
}

func runServe(c *cobra.Command, f serveFlags) error {
	cfg, err := f.config()
	if err != nil {
		return usageError{err}
	}
	tok, err := openTokenizer(f.tokenizer)
	if err != nil {
		return usageError{fmt.Errorf("--tokenizer: %w", err)}
	}
	cfg.Tokenizer = tok
	if cfg.Faults.Enabled() {
		cfg.FaultLog = c.ErrOrStderr()
	}
	s, err := server.New(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listenAddr(f.addr, f.port))
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	fmt.Fprintln(c.OutOrStdout(), s.Describe())
	if cfg.Faults.Enabled() {
		fmt.Fprintf(c.OutOrStdout(), "injecting faults %s (seed %d)\n", cfg.Faults, cfg.FaultSeed)
	}
	fmt.Fprintf(c.OutOrStdout(), "listening on http://%s (Ctrl-C to stop)\n", ln.Addr())
	return s.Serve(c.Context(), ln)
}

// config builds the server configuration from the flags, without the
// tokenizer.
func (f serveFlags) config() (server.Config, error) {
	if err := f.engine.check(); err != nil {
		return server.Config{}, err
	}
	faults, err := server.ParseFaults(f.faults)
	if err != nil {
		return server.Config{}, fmt.Errorf("--faults: %w", err)
	}
	f.hw.Settings = f.engine.settings()
	cfg, err := harness.NewServer(f.hw)
	cfg.Model = f.served
	cfg.Faults, cfg.FaultSeed = faults, f.faultSeed
	return cfg, err
}
