package harness

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

// Engine chooses the built-in engines a run starts when it has no target:
// one per model the workload's requests name, each serving that name.
type Engine struct {
	// Model is the catalog model every engine simulates; "" means each
	// engine's served model, which the catalog must then know.
	Model string
	GPU   string // catalog accelerator; "" means DefaultEngineGPU
	TP    int    // GPUs per engine; 0 means 1
	// Settings set each engine's scheduler and memory; a zero field
	// means vLLM's default.
	Settings EngineSettings
}

// embedded are the built-in engines a run started: one per model its
// requests name, each on a loopback port of its own.
type embedded struct {
	base   string            // the one engine's URL, when there is one
	routes map[string]string // served model → URL, when there are several
	names  map[string]string // served model → the engine's name (EngineName)
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

// startEmbedded starts the built-in engines of eng on ephemeral loopback
// ports, one per model the workload's requests name (after model), each
// serving that name so that the requests are accepted. It prints one line
// per engine to log.
func startEmbedded(log io.Writer, eng Engine, model string, in *Workload) (*embedded, error) {
	g, err := sim.LookupGPU(pick(eng.GPU, DefaultEngineGPU))
	if err != nil {
		return nil, ConfigError{fmt.Errorf("--gpu: %w", err)}
	}
	eng.TP = max(eng.TP, 1)
	eng.Settings = eng.Settings.orDefaults(eng.TP)
	tok, err := in.openTokenizer()
	if err != nil {
		tok, err = content.Builtin("o200k_base")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "surge: the built-in engine counts prompts with o200k_base (could not open %q)\n", in.Header.Tokenizer)
	}
	served := modelsOf(in, model).sent
	if len(served) == 0 {
		served = []string{""} // no model to serve: the catalog name
	}
	e := &embedded{routes: map[string]string{}, names: map[string]string{}}
	for _, name := range served {
		url, engine, stop, err := startModelEngine(log, eng, sim.Hardware{GPU: g, TP: eng.TP}, tok, name)
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
// EngineModel) serving the model name served ("" for the simulated
// model's own name), prints a line saying so, and returns its URL, its
// name (EngineName) and its stop function.
func startModelEngine(log io.Writer, eng Engine, hw sim.Hardware, tok content.Tokenizer, served string) (string, string, func(), error) {
	m, err := EngineModel(eng.Model, served)
	if err != nil {
		return "", "", nil, ConfigError{err}
	}
	hw.Model = m
	cfg, err := eng.Settings.Server(hw)
	if err != nil {
		return "", "", nil, ConfigError{err}
	}
	cfg.Tokenizer, cfg.Model = tok, served
	// The server outlives the run's context: on cancellation the driver
	// drains requests in flight, which needs the engine still running.
	url, stop, err := server.Start(context.Background(), cfg)
	if err != nil {
		return "", "", nil, fmt.Errorf("starting the built-in engine for %q: %w", served, err)
	}
	fmt.Fprintf(log, "surge: no --target: driving the built-in engine for %q, %s on %d×%s, at %s\n",
		pick(served, m.Name), m.Name, hw.TP, hw.GPU.Name, url)
	return url, EngineName(hw, eng.Settings), stop, nil
}

// EngineName names an engine for the records header as surge sim names
// its target, without the scheme: MODEL@GPUxTP, then the engine settings
// that differ from vLLM's defaults as a query.
func EngineName(hw sim.Hardware, e EngineSettings) string {
	name := fmt.Sprintf("%s@%sx%d", hw.Model.Name, hw.GPU.Name, hw.TP)
	if q := e.Query(hw); q != "" {
		name += "?" + q
	}
	return name
}

// EngineModel picks the catalog model an engine serving the model name
// served simulates: model if given, else served, which the catalog must
// know (DefaultEngineModel when served is ""). The error of a served
// model the catalog does not know lists the catalog and says to name one
// with --engine-model.
func EngineModel(model, served string) (sim.Model, error) {
	if model != "" {
		m, err := sim.LookupModel(model)
		if err != nil {
			return sim.Model{}, fmt.Errorf("--engine-model: %w", err)
		}
		return m, nil
	}
	m, err := sim.LookupModel(pick(served, DefaultEngineModel))
	if err != nil {
		return sim.Model{}, fmt.Errorf("the built-in engine does not know the workload's model: %w; "+
			"--engine-model NAME simulates one of these under the workload's name", err)
	}
	return m, nil
}
