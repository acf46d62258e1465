package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"surge/workload"
)

// GenResult is what Gen wrote.
type GenResult struct {
	workload.Result
	Hash string // the workload hash of the trace
}

// Gen compiles the spec at name in fsys, edited as opts say, and writes
// its trace to w as it goes, in bounded memory: what `surge gen` does.
// A cancelled ctx ends it with an error saying how many sessions were
// written.
func Gen(ctx context.Context, w io.Writer, fsys fs.FS, name string, opts LoadOptions) (GenResult, error) {
	s, err := LoadSpec(fsys, name)
	if err != nil {
		return GenResult{}, err
	}
	if opts.Edit != nil {
		if err := opts.Edit(s); err != nil {
			return GenResult{}, err
		}
	}
	tok, synth, err := OpenContent(fsys, name, s)
	if err != nil {
		return GenResult{}, err
	}
	sets, err := OpenDatasets(fsys, name, s)
	if err != nil {
		return GenResult{}, err
	}
	g, err := workload.New(s, tok, synth, workload.Options{NoText: opts.NoText, Datasets: sets})
	if err != nil {
		return GenResult{}, fmt.Errorf("spec %s: %w", name, err)
	}
	res, hash, err := g.WriteTrace(ctx, w)
	if errors.Is(err, context.Canceled) {
		return GenResult{Result: res}, fmt.Errorf("gen %s: interrupted after %d sessions", name, res.Sessions)
	}
	if err != nil {
		return GenResult{Result: res}, fmt.Errorf("gen %s: %w", name, err)
	}
	return GenResult{Result: res, Hash: hash}, nil
}
