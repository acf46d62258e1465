package cli

import (
	"context"
	"fmt"
	"io"

	"surge/content"
	"surge/sim"
	"surge/sim/server"
)

// Defaults of the built-in engine that `surge run` starts when no --target
// is given.
const (
	defaultEngineModel = "Llama-3.1-8B"
	defaultEngineGPU   = "H100-SXM"
)

// startEmbedded starts the built-in engine on an ephemeral loopback port
// and points the run at it: the engine's model is --engine-model, else the
// workload's first model if the catalog knows it, else Llama-3.1-8B; every
// request asks for the served model. It returns the stop function.
func startEmbedded(w io.Writer, f *runFlags, in *workloadInput) (func(), error) {
	m, err := embeddedModel(f.engineModel, in)
	if err != nil {
		return nil, usageError{fmt.Errorf("--engine-model: %w", err)}
	}
	g, err := sim.LookupGPU(f.gpu)
	if err != nil {
		return nil, usageError{fmt.Errorf("--gpu: %w", err)}
	}
	tok, err := content.Open(in.header.Tokenizer)
	if err != nil {
		tok, err = content.Builtin("o200k_base")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "surge: the built-in engine counts prompts with o200k_base (could not open %q)\n", in.header.Tokenizer)
	}
	cfg, err := engineServer(f.engine, sim.Hardware{Model: m, GPU: g, TP: f.tp})
	if err != nil {
		return nil, usageError{err}
	}
	cfg.Tokenizer = tok
	// The server outlives the run's context: on Ctrl-C the driver drains
	// requests in flight, which needs the engine still running.
	url, stop, err := server.Start(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("starting the built-in engine: %w", err)
	}
	f.target, f.model, f.builtin = url, m.Name, true
	fmt.Fprintf(w, "surge: no --target: driving the built-in engine, %s on %d×%s, at %s\n", m.Name, f.tp, g.Name, url)
	return stop, nil
}

// embeddedModel picks the catalog model the built-in engine serves.
func embeddedModel(flag string, in *workloadInput) (sim.Model, error) {
	if flag != "" {
		return sim.LookupModel(flag)
	}
	for _, c := range in.header.Clients {
		if m, err := sim.LookupModel(c.Model); err == nil {
			return m, nil
		}
	}
	return sim.LookupModel(defaultEngineModel)
}
