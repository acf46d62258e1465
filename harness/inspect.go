package harness

import (
	"fmt"
	"io/fs"

	"surge/sim/virtual"
	"surge/trace"
)

// SummarizeTrace reads the trace at name in fsys as it goes and
// summarises it (what surge inspect prints): per-client rates and
// burstiness, length quantiles, and the prefix reuse it implies with
// KV-cache blocks of block tokens.
func SummarizeTrace(fsys fs.FS, name string, block int) (*trace.Summary, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("reading trace: %w", err)
	}
	defer f.Close()
	tr, err := trace.NewReader(f)
	if err != nil {
		return nil, trace.InFile(name, err)
	}
	sum, err := virtual.Summarize(tr, block)
	if err != nil {
		return nil, trace.InFile(name, err)
	}
	return sum, nil
}
