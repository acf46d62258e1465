package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"

	"surge/content"
	"surge/trace"
	"surge/trace/importers"
)

// DatasetOptions say how Dataset shapes an imported trace, as vllm bench
// serve's flags do a dataset.
type DatasetOptions struct {
	// Import reads the files (format, model, ShareGPT's token counts,
	// rate and concurrency of its conversations).
	Import importers.ImportOptions
	// Sessions keeps the first this many sessions in start order (0: all).
	Sessions int
	// Rate, for a trace of requests, rescales the kept sessions' offsets
	// to this mean rate per second, keeping their burst shape (0: as
	// recorded).
	Rate float64
}

// Dataset imports the named files of fsys in memory and shapes the trace
// as opts say: the workload of vllm bench serve's --dataset-name and
// --dataset-path. Every request asks for exactly its recorded output
// length, as imports do. Its hash is that of the trace it sends.
func Dataset(ctx context.Context, fsys fs.FS, names []string, opts DatasetOptions) (*Workload, error) {
	var buf bytes.Buffer
	if _, err := importers.Import(ctx, &buf, fsys, names, opts.Import); err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, ErrInterrupted
		}
		return nil, err
	}
	w, err := ReadTrace(&buf)
	if err != nil {
		return nil, fmt.Errorf("reading the imported trace: %w", err)
	}
	if opts.Sessions > 0 && len(w.Sessions) > opts.Sessions {
		w.Sessions = w.Sessions[:opts.Sessions]
	}
	rescale(w.Sessions, opts.Rate)
	if w.Hash, err = hashSessions(w.Header, w.Sessions); err != nil {
		return nil, err
	}
	if tok, err := content.OpenFS(fsys, w.tokenizer()); err == nil {
		w.Tokenizer = tok
	}
	w.SpecPath = names[0]
	return w, nil
}

// rescale multiplies the offsets of ss, in start order, so that the
// first starts at 0 and their mean rate is rate per second; it leaves them as they are for a rate of
// 0, fewer than two sessions, or sessions that all start at once.
func rescale(ss []*trace.Session, rate float64) {
	if rate <= 0 || len(ss) < 2 || ss[len(ss)-1].AtUS <= ss[0].AtUS {
		return
	}
	first := ss[0].AtUS
	scale := float64(len(ss)-1) / rate * 1e6 / float64(ss[len(ss)-1].AtUS-first)
	for _, s := range ss {
		s.AtUS = int64(math.Round(float64(s.AtUS-first) * scale))
	}
}

// hashSessions is the workload hash of a trace of h and ss.
func hashSessions(h trace.Header, ss []*trace.Session) (string, error) {
	tw, err := trace.NewWriter(io.Discard, h)
	if err != nil {
		return "", err
	}
	for _, s := range ss {
		if err := tw.Write(s); err != nil {
			return "", err
		}
	}
	return tw.Close()
}
