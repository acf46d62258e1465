package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"

	"surge/internal/memnet"

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
// requests name, each on an in-memory listener of its own (package
// memnet) whose host name only the run's dial knows.
type embedded struct {
	base      string            // the one engine's URL, when there is one
	routes    map[string]string // served model → URL, when there are several
	listeners map[string]*memnet.Listener
	stops     []func()
}

// dial connects to the engine whose host address names, or over the
// network to any other address (a --metrics-url elsewhere), as the
// DialContext of an http.Transport.
func (e *embedded) dial(ctx context.Context, network, address string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	if l, ok := e.listeners[host]; ok {
		return l.DialContext(ctx, network, address)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, address)
}

// stop stops every engine and waits for them.
func (e *embedded) stop() {
	for _, s := range e.stops {
		s()
	}
}

// startEmbedded starts the built-in engines in memory, one per model the workload's requests name (after --model), each
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
	e := &embedded{routes: map[string]string{}, listeners: map[string]*memnet.Listener{}}
	for i, name := range served {
		ln := memnet.Listen(fmt.Sprintf("builtin-engine-%d", i+1))
		stop, err := startModelEngine(w, f, sim.Hardware{GPU: g, TP: f.tp}, tok, name, ln)
		if err != nil {
			e.stop()
			return nil, err
		}
		e.stops = append(e.stops, stop)
		e.listeners[ln.Addr().String()] = ln
		e.base = "http://" + ln.Addr().String()
		e.routes[name] = e.base
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
// model's own name) on ln, prints a line saying so, and returns its stop
// function.
func startModelEngine(w io.Writer, f runFlags, hw sim.Hardware, tok content.Tokenizer, served string, ln *memnet.Listener) (func(), error) {
	m, err := engineModel(f.engineModel, served)
	if err != nil {
		return nil, usageError{fmt.Errorf("--engine-model: %w", err)}
	}
	hw.Model = m
	cfg, err := engineServer(f.engine, hw)
	if err != nil {
		return nil, usageError{err}
	}
	cfg.Tokenizer, cfg.Model = tok, served
	s, err := server.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("starting the built-in engine for %q: %w", served, err)
	}
	// The server outlives the run's context: on Ctrl-C the driver drains
	// requests in flight, which needs the engine still running.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(ctx, ln)
	}()
	fmt.Fprintf(w, "surge: no --target: driving the built-in engine for %q, %s on %d×%s, in memory at http://%s\n",
		pick(served, m.Name), m.Name, hw.TP, hw.GPU.Name, ln.Addr())
	return sync.OnceFunc(func() {
		cancel()
		<-done
	}), nil
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
