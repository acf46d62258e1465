package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"

	"surge/fit"
)

// DriftOptions say what surge fit --against grades a log against.
type DriftOptions struct {
	// Against is the path of the spec in the file system, none to fit.
	Against string
	// Bounds are the thresholds past which the spec no longer describes
	// the log (fit.DefaultDriftBounds for a bound not above 0).
	Bounds fit.DriftBounds
	// JSON writes the report as JSON rather than a table.
	JSON bool
}

// Drift reads the named files of fsys, as Fit does, and grades how well
// the spec at opts.Against describes them (fit.Drift). It returns the
// report, a table or JSON, with the error of a report that found a
// measure past its bound, so that the report can still be written.
func Drift(ctx context.Context, fsys fs.FS, names []string, opts FitOptions) ([]byte, error) {
	specYAML, err := fs.ReadFile(fsys, opts.Drift.Against)
	if err != nil {
		return nil, fmt.Errorf("fit --against: reading the spec: %w", err)
	}
	tr, err := FitTraffic(ctx, fsys, names, opts.Import, opts.Tokenizer)
	if err != nil {
		return nil, err
	}
	r, err := fit.Drift(ctx, specYAML, tr, opts.Drift.Bounds)
	if err != nil {
		return nil, fmt.Errorf("fit --against %s: %w", opts.Drift.Against, err)
	}
	var b bytes.Buffer
	if opts.Drift.JSON {
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		err = enc.Encode(r)
	} else {
		err = r.WriteText(&b)
	}
	if err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return b.Bytes(), fmt.Errorf("fit --against %s: %w", opts.Drift.Against, err)
	}
	return b.Bytes(), nil
}
