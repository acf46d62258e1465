package cli

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"surge/content"
	"surge/sim"
	"surge/sim/server"
)

type serveFlags struct {
	model     string
	gpu       string
	tp        int
	addr      string
	tokenizer string
	served    string
	engine    engineFlags
}

func newServe() *cobra.Command {
	var f serveFlags
	c := &cobra.Command{
		Use:   "serve --model M --gpu G",
		Short: "Serve a simulated model on an OpenAI-compatible HTTP endpoint in real time",
		Long: `serve runs the built-in engine in real time behind an OpenAI-compatible HTTP
server: model M on TP GPUs of type G, with vLLM's continuous batching, KV
cache and prefix caching, and step times from the cost model. Point any
client or load generator (surge run --target URL) at it.

It serves POST /v1/chat/completions and /v1/completions (streaming or not),
GET /v1/models, /health and /metrics (vLLM's Prometheus metric names).
Prompts are counted with --tokenizer; generated text is simple words, one
token each. It listens on loopback unless --addr says otherwise, and
serves until Ctrl-C. --max-num-seqs, --max-num-batched-tokens,
--no-prefix-caching, --gpu-memory-utilization and --max-model-len mean
what they mean to vllm serve.`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, _ []string) error { return runServe(c, f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.model, "model", "", "model from the sim catalog, e.g. llama-3.1-8b")
	fs.StringVar(&f.gpu, "gpu", "", "accelerator from the sim catalog, e.g. h100")
	fs.IntVar(&f.tp, "tp", 1, "GPUs (tensor parallelism)")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8000", "address to listen on")
	fs.StringVar(&f.tokenizer, "tokenizer", "o200k_base", "tokenizer counting prompt tokens: o200k_base, cl100k_base or a tokenizer.json path")
	fs.StringVar(&f.served, "served-model-name", "", "model name clients must send (default the catalog name)")
	f.engine.register(fs, "")
	return c
}

func runServe(c *cobra.Command, f serveFlags) error {
	cfg, err := f.config()
	if err != nil {
		return usageError{err}
	}
	tok, err := content.Open(f.tokenizer)
	if err != nil {
		return usageError{fmt.Errorf("--tokenizer: %w", err)}
	}
	cfg.Tokenizer = tok
	s, err := server.New(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	ec := s.EngineConfig()
	hw := cfg.Hardware
	fmt.Fprintf(c.OutOrStdout(), "serving %q: %s on %d×%s, %s\n", s.Model(), hw.Model.Name, f.tp, hw.GPU.Name, describe(ec))
	fmt.Fprintf(c.OutOrStdout(), "listening on http://%s (Ctrl-C to stop)\n", ln.Addr())
	return s.Serve(c.Context(), ln)
}

// config builds the server configuration from the flags, without the
// tokenizer.
func (f serveFlags) config() (server.Config, error) {
	switch {
	case f.model == "" || f.gpu == "":
		return server.Config{}, fmt.Errorf("serve needs --model and --gpu, e.g. --model llama-3.1-8b --gpu h100")
	case f.tp < 1:
		return server.Config{}, fmt.Errorf("--tp %d: want 1 or more GPUs", f.tp)
	}
	m, err := sim.LookupModel(f.model)
	if err != nil {
		return server.Config{}, fmt.Errorf("--model: %w", err)
	}
	g, err := sim.LookupGPU(f.gpu)
	if err != nil {
		return server.Config{}, fmt.Errorf("--gpu: %w", err)
	}
	cfg, err := engineServer(f.engine, sim.Hardware{Model: m, GPU: g, TP: f.tp})
	cfg.Model = f.served
	return cfg, err
}
