package harness

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"surge/bundle"
	"surge/report"
	"surge/sim"
	"surge/sim/virtual"
	"surge/trace"
)

// headerRoom is the room the records header of a streamed simulation
// leaves for what only its end knows: the workload hash and the implied
// reuse (about 170 bytes).
const headerRoom = 512

// streamable reports whether cfg's workload can be simulated as it is
// generated: a spec loaded to stream, with open-loop clients only (a
// closed loop's sessions are all held, as virtual.RunInput holds them),
// into a bundle, whose records file takes the header its end completes.
func streamable(cfg *Config) bool {
	in := cfg.Workload
	return in.generator != nil && !cfg.bare() && len(in.closedLoop()) == 0
}

// streamed is what a streamed simulation learns of its workload by
// writing the bundle's trace of the sessions it generates: their hash,
// the reuse they imply, their turns and faults.
type streamed struct {
	hash     string
	reuse    *trace.Reuse
	faulted  int
	complete bool // every session was generated: the trace is the workload's
}

// runStreamed is runVirtual for a workload generated as it runs. One
// goroutine generates the sessions; the simulation takes them one by one
// (virtual.RunInput), holding those in flight; another goroutine writes
// them to the bundle's trace and counts the reuse they imply, which with
// the workload hash go into the records header once the run is over.
func runStreamed(ctx context.Context, cfg Config) (*Result, error) {
	in := cfg.Workload
	if err := makeDir(&cfg); err != nil {
		return nil, err
	}
	g, err := in.generator()
	if err != nil {
		return nil, err
	}
	genCtx, stop := context.WithCancel(ctx)
	defer stop()
	sessions := make(chan *trace.Session, 256)
	generated := make(chan error, 1)
	go func() {
		defer close(sessions)
		_, err := g.Generate(genCtx, func(s *trace.Session) error {
			select {
			case sessions <- s:
				return nil
			case <-genCtx.Done():
				return genCtx.Err()
			}
		})
		generated <- err
	}()
	src := newSessionSource(sessions)
	book := newTraceBook(cfg.Dir, in.Header, src.text, !cfg.NoTrace)
	src.book = book
	wall := time.Now()
	end, server, final, rs, h, err := simulateStreamed(ctx, &cfg, src)
	stop()
	gerr := <-generated
	for range sessions { // unblock the generator, cancelled
	}
	fin, berr := book.close(src.drained && gerr == nil)
	if err == nil && gerr != nil && !errors.Is(gerr, context.Canceled) {
		err = fmt.Errorf("generating the workload: %w", gerr)
	}
	if err = errors.Join(err, berr); err != nil {
		return nil, err
	}
	in.Hash = fin.hash
	h.WorkloadHash, h.PrefixReuse = fin.hash, fin.reuse
	rs.Header.WorkloadHash, rs.Header.PrefixReuse = fin.hash, fin.reuse
	if err := h.rewrite(); err != nil {
		return nil, err
	}
	streamNotes(&cfg, fin, end, wall)
	prompts := func(string, int, int) string { return "" }
	if fin.complete && !cfg.NoTrace {
		prompts = slowestPrompts(os.DirFS(cfg.Dir), bundle.TraceFile, rs, cfg.Log)
	}
	res, err := finish(&cfg, rs, report.HTMLInput{Prompt: prompts, Server: server}, &final)
	if res == nil {
		return nil, err
	}
	res.End, res.Target = end, cfg.Virtual.Target
	m := manifest(&cfg, in, cfg.Virtual.Target, "", res.Summary.Header.Start, end)
	if merr := bundle.WriteManifest(cfg.Dir, m); merr != nil {
		err = errors.Join(err, fmt.Errorf("writing the bundle's manifest: %w", merr))
	}
	res.Verdict = verdict(&cfg, res.Summary, res.Summary.Interrupted)
	return res, err
}

// streamNotes prints what a streamed simulation says about itself: the
// faults it did not inject, a trace cut short, its speed.
func streamNotes(cfg *Config, fin streamed, end trace.RunEnd, wall time.Time) {
	if n, w := fin.faulted, len(cfg.Workload.Header.FaultWindows); n+w > 0 {
		fmt.Fprintf(cfg.Log, "surge: sim does not inject faults: %d requests that carry one and %d storm or burst windows ran as healthy (a burst's arrivals are in the trace already); surge run injects them\n", n, w)
	}
	if !fin.complete {
		fmt.Fprintf(cfg.Log, "surge: the run stopped before its workload was all generated: the bundle keeps the spec, from which surge gen makes the whole trace, and no trace\n")
	} else if cfg.NoTrace {
		fmt.Fprintf(cfg.Log, "surge: --no-trace: the bundle keeps the spec, from which surge gen makes the trace of workload hash %s\n", fin.hash)
	}
	if fin.reuse == nil && fin.complete {
		fmt.Fprintf(cfg.Log, "surge: the workload has more than %d distinct prompt blocks: the records header leaves its implied prefix reuse out\n", virtual.MaxReuseBlocks)
	}
	speedNote(cfg, end, wall)
}

// sessionSource hands the generated sessions to the simulation one by
// one, after reading ahead the first ones, as many as the text tally
// counts (virtual.TextSample tokens of text), which name the prompts'
// blocks; each session it hands out it also gives to the trace book.
type sessionSource struct {
	in      <-chan *trace.Session
	ahead   []*trace.Session
	text    virtual.TextTally
	book    *traceBook
	drained bool // the generator's channel is closed and empty
}

// newSessionSource reads ahead the sessions the text tally needs.
func newSessionSource(in <-chan *trace.Session) *sessionSource {
	src := &sessionSource{in: in}
	for !src.text.Full() {
		s, ok := <-in
		if !ok {
			src.drained = true
			break
		}
		src.text.Add(s)
		src.ahead = append(src.ahead, s)
	}
	return src
}

// next is virtual.Input.Next.
func (src *sessionSource) next() (*trace.Session, error) {
	var s *trace.Session
	if len(src.ahead) > 0 {
		s, src.ahead[0] = src.ahead[0], nil
		src.ahead = src.ahead[1:]
	} else {
		var ok bool
		if s, ok = <-src.in; !ok {
			src.drained = true
			return nil, io.EOF
		}
	}
	src.book.add(s)
	return s, nil
}

// traceBook writes the sessions handed to the simulation to the bundle's
// trace in a goroutine of its own, hashing them, and counts the reuse
// they imply and the faults they carry.
type traceBook struct {
	sessions chan *trace.Session
	done     chan error
	out      streamed
	path     string // "": the trace is hashed, not written
}

// newTraceBook starts writing the trace under h to dir's trace file, or
// only hashing it unless keep, naming text blocks by text's ratio.
func newTraceBook(dir string, h trace.Header, text virtual.TextTally, keep bool) *traceBook {
	b := &traceBook{sessions: make(chan *trace.Session, 256), done: make(chan error, 1)}
	if keep {
		b.path = filepath.Join(dir, bundle.TraceFile)
	}
	go func() { b.done <- b.write(h, text) }()
	return b
}

// add gives s to the book.
func (b *traceBook) add(s *trace.Session) { b.sessions <- s }

// write is the book's goroutine.
func (b *traceBook) write(h trace.Header, text virtual.TextTally) (err error) {
	defer func() {
		for range b.sessions { // keep the simulation going after an error
		}
	}()
	var out io.Writer = io.Discard
	if b.path != "" {
		f, err := os.Create(b.path)
		if err != nil {
			return fmt.Errorf("writing the bundle's trace: %w", err)
		}
		defer func() {
			if cerr := f.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("writing the bundle's trace: %w", cerr)
			}
		}()
		out = f
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	tw, err := trace.NewWriter(bw, h)
	if err != nil {
		return err
	}
	rc := virtual.NewReuseCounter(16, text)
	for s := range b.sessions {
		if err := tw.Write(s); err != nil {
			return fmt.Errorf("writing the bundle's trace: %w", err)
		}
		rc.Add(s)
		b.out.faulted += faultedTurns(s)
	}
	if b.out.hash, err = tw.Close(); err != nil {
		return fmt.Errorf("writing the bundle's trace: %w", err)
	}
	if r, ok := rc.Reuse(); ok {
		b.out.reuse = &r
	}
	return bw.Flush()
}

// close ends the book once the simulation has taken its last session:
// complete says whether that was the workload's last, else the trace is
// cut short and removed (the manifest's spec makes it again).
func (b *traceBook) close(complete bool) (streamed, error) {
	close(b.sessions)
	err := <-b.done
	b.out.complete = complete && err == nil
	if !b.out.complete {
		if b.path != "" {
			os.Remove(b.path)
		}
		b.out.hash, b.out.reuse = "", nil
	}
	return b.out, err
}

// faultedTurns counts the turns of s that carry a fault.
func faultedTurns(s *trace.Session) int {
	n := 0
	for i := range s.Turns {
		if s.Turns[i].Fault != nil {
			n++
		}
	}
	return n
}

// streamedHeader is the records header of a streamed simulation and the
// writer and file that hold it, for writing in place the header the run's
// end completes.
type streamedHeader struct {
	trace.RunHeader
	rw   *trace.RecordWriter
	file *os.File
}

// rewrite writes the completed header over the one the run began with.
func (h *streamedHeader) rewrite() error {
	f, err := os.OpenFile(h.file.Name(), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("completing the records header: %w", err)
	}
	if err := h.rw.RewriteHeader(f, h.RunHeader); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// simulateStreamed is simulate for sessions src hands out one by one:
// the records file begins with a header the run's end completes
// (streamedHeader.rewrite).
func simulateStreamed(ctx context.Context, cfg *Config, src *sessionSource) (trace.RunEnd, []report.ServerSample, sim.Stats, *trace.Records, *streamedHeader, error) {
	var watch engineWatch
	vc := watch.attach(cfg.Virtual.Config)
	final := watch.final
	in := cfg.Workload
	f, err := os.Create(recordsPath(cfg.Dir))
	if err != nil {
		return trace.RunEnd{}, nil, final, nil, nil, fmt.Errorf("creating records file: %w", err)
	}
	defer f.Close()
	vc.Start = time.Now().Round(0)
	h := &streamedHeader{RunHeader: simHeader(cfg, vc.Start), file: f}
	if h.rw, err = trace.NewRecordWriterRoom(f, h.RunHeader, headerRoom); err != nil {
		return trace.RunEnd{}, nil, final, nil, nil, err
	}
	kept := &keep{}
	input := virtual.Input{Next: src.next, Text: src.text}
	end, err := virtual.RunInput(ctx, vc, in.Header, input, sinkOf(tee{h.rw, kept}, cfg.Watch))
	if err != nil {
		return end, nil, final, nil, nil, fmt.Errorf("sim: %w", err)
	}
	if err := h.rw.Close(end); err != nil {
		return end, nil, final, nil, nil, fmt.Errorf("writing records: %w", err)
	}
	rs, err := kept.records(h.RunHeader, end)
	if err != nil {
		return end, nil, final, nil, nil, err
	}
	return end, watch.server, watch.final, rs, h, f.Close()
}
