package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

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

// embedded are the built-in engines a run started: one per model its
// requests name, each on a loopback port of its own.
type embedded struct {
	base   string            // the one engine's URL, when there is one
	routes map[string]string // served model → URL, when there are several
	names  map[string]string // served model → the engine's name (engineName)
	stops  []func()
}

// name is the records header's Engine: the one engine's name, or
// "served=name" per served model, sorted, joined by commas.
func (e *embedded) name() string {
	if len(e.names) == 1 {
		for _, n := range e.names {
			return n
		}
	}
	pairs := make([]string, 0, len(e.names))
	for _, m := range slices.Sorted(maps.Keys(e.names)) {
		pairs = append(pairs, m+"="+e.names[m])
	}
	return strings.Join(pairs, ",")
}

// stop stops every engine and waits for them.
func (e *embedded) stop() {
	for _, s := range e.stops {
		s()
	}
}

// startEmbedded starts the built-in engines on ephemeral loopback ports,
// one per model the workload's requests name (after --model), each
// serving that name so that the requests are accepted. Each simulates
// --engine-model if given, else its model if the catalog knows it, else
// Llama-3.1-8B; all share --gpu, --tp and the engine flags. It prints one
// line per engine to w.
func startEmbedded(w io.Writer, f runFlags, in *workloadInput) (*embedded, error) {
	g, err := sim.LookupGPU(f.gpu)
	if err != nil {
		return nil, usageError{fmt.Errorf("--gpu: %w", err)}
	}
	tok, err := content.Open(traceTokenizer(in.header))
	if err != nil {
		tok, err = content.Builtin("o200k_base")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "surge: the built-in engine counts prompts with o200k_base (could not open %q)\n", in.header.Tokenizer)
	}
	served := modelsOf(in, f.model).sent
	if len(served) == 0 {
		served = []string{""} // no model to serve: the catalog name
	}
	e := &embedded{routes: map[string]string{}, names: map[string]string{}}
	for _, name := range served {
		url, engine, stop, err := startModelEngine(w, f, sim.Hardware{GPU: g, TP: f.tp}, tok, name)
		if err != nil {
			e.stop()
			return nil, err
		}
		e.stops = append(e.stops, stop)
		e.routes[name], e.names[name] = url, engine
		e.base = url
	}
	if len(served) > 1 {
		e.base = ""
	} else {
		e.routes = nil
	}
	return e, nil
}

// startModelEngine starts one built-in engine on hw (its model left to
// engineModel) serving the model name served ("" for the simulated
// model's own name), prints a line saying so, and returns its URL, its
// name (engineName) and its stop function.
func startModelEngine(w io.Writer, f runFlags, hw sim.Hardware, tok content.Tokenizer, served string) (string, string, func(), error) {
	m, err := engineModel(f.engineModel, served)
	if err != nil {
		return "", "", nil, usageError{fmt.Errorf("--engine-model: %w", err)}
	}
	hw.Model = m
	cfg, err := engineServer(f.engine, hw)
	if err != nil {
		return "", "", nil, usageError{err}
	}
	cfg.Tokenizer, cfg.Model = tok, served
	// The server outlives the run's context: on Ctrl-C the driver drains
	// requests in flight, which needs the engine still running.
	url, stop, err := server.Start(context.Background(), cfg)
	if err != nil {
		return "", "", nil, fmt.Errorf("starting the built-in engine for %q: %w", served, err)
	}
	fmt.Fprintf(w, "surge: no --target: driving the built-in engine for %q, %s on %d×%s, at %s\n",
		pick(served, m.Name), m.Name, hw.TP, hw.GPU.Name, url)
	return url, engineName(hw, f.engine), stop, nil
}

// engineName names an engine for the records header as surge sim names
// its target, without the scheme: MODEL@GPUxTP, then the engine settings
// that differ from vLLM's defaults as a query.
func engineName(hw sim.Hardware, e engineFlags) string {
	name := fmt.Sprintf("%s@%sx%d", hw.Model.Name, hw.GPU.Name, hw.TP)
	if q := e.query(); q != "" {
		name += "?" + q
	}
	return name
}

// engineModel picks the catalog model an engine serving the model name
// served simulates: flag (--engine-model) if given, else served if the
// catalog knows it, else the default.
func engineModel(flag, served string) (sim.Model, error) {
	if flag != "" {
		return sim.LookupModel(flag)
	}
	if m, err := sim.LookupModel(served); err == nil {
		return m, nil
	}
	return sim.LookupModel(defaultEngineModel)
}
