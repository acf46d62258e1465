package importers

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"surge/trace"
)

// ServeGenWindow is the length of a ServeGen window, 10 minutes.
const ServeGenWindow = 600 * time.Second

// maxServeGenRate bounds a window's rate, 10⁵ requests/s (the published
// files reach 2,894).
const maxServeGenRate = 1e5

// ServeGenOptions shape the requests generated from a ServeGen client.
type ServeGenOptions struct {
	Options
	// Seed seeds the arrivals and lengths; with the client's name and a
	// window's start it fixes that window's requests, whichever windows
	// are generated.
	Seed uint64
	// From and To generate only the windows overlapping [From, To) (To 0:
	// to the end), keeping the arrivals in it; the others are still read
	// and checked.
	From, To time.Duration
	// Input and Output are every request's lengths when there is no length
	// law: no dataset, or one with no block of both PMFs.
	Input, Output int
}

// servegenWindow is one row of a ServeGen client's window CSV.
type servegenWindow struct {
	start time.Duration
	rate  float64 // requests per second
	// gap samples a gap between arrivals in seconds, of mean 1/rate; nil
	// for a window without traffic.
	gap func(*rand.Rand) float64
}

// ServeGen is a Source of requests generated from a ServeGen client's
// windows. It is not safe for concurrent use.
type ServeGen struct {
	lr      *lineReader
	opts    ServeGenOptions
	lengths servegenLengths
	client  uint64 // hash of the client's name
	n       int
	skipped Skips
	// The window being generated: its end, the next arrival and its
	// generator; w.gap nil when there is none.
	w    servegenWindow
	end  time.Duration
	next float64 // seconds
	rng  *rand.Rand
	last time.Duration // start of the last window read
	read bool          // a window has been read
}

// NewServeGen returns a Source of the requests of one ServeGen client:
// windows, the client's CSV of 10-minute windows without a header
// (window_start_s,rate,cv,pattern,shape,scale), generated as a renewal
// process per window, and lengths, its dataset JSON of length PMFs per
// 6-hour block (nil: opts.Input and opts.Output for every request).
//
// In a window with pattern Gamma or Weibull the gaps between arrivals
// follow that law with the stored shape k, scaled to the window's mean
// rate λ (the stored scale is not used):
//
//	Gamma:   θ = 1/(λk),             mean kθ = 1/λ, cv 1/√k
//	Weibull: η = 1/(λ Γ(1 + 1/k)),   mean η Γ(1 + 1/k) = 1/λ
//
// the first arrival one gap after the window's start and none at or past
// its end; an empty pattern or a rate of 0 is a window without traffic.
// Each arrival asks for an input and an output drawn independently from
// the PMFs of the block in force (the last starting at or before it; the
// first for arrivals before them all), exactly (ignore_eos; 0 asked as
// 1). Offsets are from the trace's time 0, so clients of one model stay
// aligned. A malformed window is a *RowError naming its line, or with
// SkipBad skipped and counted as a window without traffic.
func NewServeGen(windows, lengths io.Reader, opts ServeGenOptions) (*ServeGen, error) {
	switch {
	case opts.From < 0 || opts.To < 0 || (opts.To > 0 && opts.To <= opts.From):
		return nil, fmt.Errorf("servegen: window %v to %v: want 0 ≤ from < to", opts.From, opts.To)
	case opts.Input < 0 || opts.Input > maxTokens || opts.Output < 0 || opts.Output > maxTokens:
		return nil, fmt.Errorf("servegen: default lengths %d and %d: want 0 to %d", opts.Input, opts.Output, maxTokens)
	}
	sg := &ServeGen{lr: newLineReader(windows), opts: opts}
	if lengths != nil {
		ls, err := parseServeGenLengths(lengths)
		if err != nil {
			return nil, err
		}
		sg.lengths = ls
	}
	h := fnv.New64a()
	h.Write([]byte(opts.Client))
	sg.client = h.Sum64()
	return sg, nil
}

// HasLengths reports whether the requests' lengths come from PMFs, not
// Options.Input and Output.
func (sg *ServeGen) HasLengths() bool { return len(sg.lengths) > 0 }

// Skipped returns the malformed windows skipped so far.
func (sg *ServeGen) Skipped() Skips { return sg.skipped }

// Sessions returns how many sessions Next has returned.
func (sg *ServeGen) Sessions() int { return sg.n }

// Next returns the next request, or io.EOF after the last window.
func (sg *ServeGen) Next() (*trace.Session, error) {
	for {
		if sg.w.gap != nil {
			at := sg.w.start + time.Duration(math.Round(sg.next*1e9))
			if at < sg.end {
				// Lengths are drawn before the next gap, and for arrivals
				// before From too, so that a window's requests do not
				// depend on which of them are kept.
				d := sg.draw(at)
				sg.next += sg.w.gap(sg.rng)
				if at >= sg.opts.From {
					return sg.session(at, d), nil
				}
				continue
			}
			sg.w.gap = nil
		}
		if err := sg.nextWindow(); err != nil {
			return nil, err
		}
	}
}

// nextWindow reads the next window to generate, passing (but checking)
// windows outside [From, To); io.EOF at the end of the file or past To.
func (sg *ServeGen) nextWindow() error {
	for {
		line, err := nextLine(sg.lr)
		if err != nil && !isRowError(err) {
			if err != io.EOF && sg.opts.Name != "" {
				err = fmt.Errorf("%s: %w", sg.opts.Name, err)
			}
			return err
		}
		var w servegenWindow
		if err == nil {
			w, err = parseServeGenWindow(string(line))
			if err == nil && sg.read && w.start < sg.last+ServeGenWindow {
				err = fmt.Errorf("window at %v overlaps the one at %v: want starts %v apart, in order", w.start, sg.last, ServeGenWindow)
			}
			if err != nil {
				err = rowError(sg.lr.line, err)
			}
		}
		if err != nil {
			re := err.(*RowError)
			re.Name = sg.opts.Name
			if !sg.opts.SkipBad {
				return re
			}
			sg.skipped.add(re)
			continue
		}
		sg.read, sg.last = true, w.start
		end := w.start + ServeGenWindow
		if sg.opts.To > 0 && w.start >= sg.opts.To {
			continue // read on, to check the rest of the file
		}
		if w.gap == nil || end <= sg.opts.From {
			continue
		}
		sg.w, sg.end = w, min(end, sg.opts.To)
		if sg.opts.To == 0 {
			sg.end = end
		}
		sg.rng = rand.New(rand.NewPCG(sg.opts.Seed, splitmix(sg.client^uint64(w.start))))
		sg.next = w.gap(sg.rng)
		return nil
	}
}

// isRowError reports whether err is a *RowError.
func isRowError(err error) bool {
	var re *RowError
	return errors.As(err, &re)
}

// drawn is a request's lengths: its input (text), its output and how
// many of those are reasoning, and its images' tokens and count.
type drawn struct {
	in, out, reasoning  int
	imageTokens, images int
}

// draw returns the lengths of a request arriving at at.
func (sg *ServeGen) draw(at time.Duration) drawn {
	d := drawn{in: sg.opts.Input, out: sg.opts.Output}
	if b := sg.lengths.at(at); b != nil {
		d.in, d.out, d.reasoning, d.imageTokens, d.images = b.draw(sg.rng)
	}
	d.out = max(d.out, 1)
	d.in, d.reasoning = max(d.in, 1), min(d.reasoning, d.out)
	return d
}

// session builds the request arriving at at with the lengths d.
func (sg *ServeGen) session(at time.Duration, d drawn) *trace.Session {
	s := &trace.Session{
		Client: sg.opts.Client, Index: sg.n, Model: sg.opts.Model, API: "chat", AtUS: micros(at),
		Turns: []trace.Turn{{InputTokens: d.in, OutputTokens: d.out, ReasoningTokens: d.reasoning, MaxTokens: d.out, MinTokens: d.out, IgnoreEOS: true,
			Images: importedImages(d.imageTokens, d.images, splitmix(sg.opts.Seed^splitmix(sg.client^uint64(sg.n))))}},
	}
	sg.n++
	return s
}

// parseServeGenWindow parses one window line,
// window_start_s,rate,cv,pattern,shape,scale (cv and scale unused).
func parseServeGenWindow(line string) (servegenWindow, error) {
	f := strings.Split(line, ",")
	if len(f) != 6 {
		return servegenWindow{}, fmt.Errorf("%d fields: want 6, window_start_s,rate,cv,pattern,shape,scale", len(f))
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	sec, err := strconv.ParseFloat(f[0], 64)
	if err != nil || sec < 0 {
		return servegenWindow{}, fmt.Errorf("window start %q: want seconds ≥ 0", f[0])
	}
	w := servegenWindow{}
	if w.start, err = seconds(sec); err != nil {
		return w, fmt.Errorf("window start: %w", err)
	}
	pattern := strings.ToLower(f[3])
	if pattern == "" && (f[1] == "" || f[1] == "0" || f[1] == "0.0") {
		return w, nil // no traffic
	}
	if w.rate, err = strconv.ParseFloat(f[1], 64); err != nil || !(w.rate >= 0) || w.rate > maxServeGenRate {
		return w, fmt.Errorf("rate %q: want requests per second, 0 to %g", f[1], float64(maxServeGenRate))
	}
	if pattern == "" || w.rate == 0 {
		if w.rate > 0 {
			return w, fmt.Errorf("rate %g with no pattern: want Gamma or Weibull", w.rate)
		}
		return w, nil
	}
	k, err := strconv.ParseFloat(f[4], 64)
	if err != nil || !(k >= 1e-3 && k <= 1e6) {
		return w, fmt.Errorf("shape %q: want a number from 0.001 to 10⁶", f[4])
	}
	w.gap, err = gapLaw(pattern, k, w.rate)
	return w, err
}

// gapLaw returns a sampler of gaps, in seconds, of the pattern's law with
// shape k and mean 1/rate.
func gapLaw(pattern string, k, rate float64) (func(*rand.Rand) float64, error) {
	switch pattern {
	case "gamma":
		return func(r *rand.Rand) float64 { return distuv.Gamma{Alpha: k, Beta: k * rate, Src: r}.Rand() }, nil
	case "weibull":
		eta := 1 / (rate * math.Gamma(1+1/k))
		if !(eta > 0) || math.IsInf(eta, 0) {
			return nil, fmt.Errorf("weibull shape %g at rate %g: no finite scale", k, rate)
		}
		return func(r *rand.Rand) float64 { return distuv.Weibull{K: k, Lambda: eta, Src: r}.Rand() }, nil
	}
	return nil, fmt.Errorf("pattern %q: want Gamma, Weibull or empty", pattern)
}

// compile-time check that ServeGen is a Source.
var _ Source = (*ServeGen)(nil)
