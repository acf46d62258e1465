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
otherwise, and serves until Ctrl-C. --max-num-seqs, --max-num-batched-tokens,
--no-prefix-caching, --gpu-memory-utilization and --max-model-len mean
what they mean to vllm serve; --dtype and --kv-cache-dtype set the
precision of weights (bf16, fp16, fp8, fp4) and KV cache (auto, fp8...).

Clients are held to limits (headers in 10 s and 64 KiB, a body in 1 min
and 16 MiB, 256 MiB of bodies at once; docs/RELIABILITY.md).

` + server.FaultsHelp,
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
