package workload

import (
	"context"
	"io"

	"surge/trace"
)

// WriteTrace generates g's sessions as a trace on w: the header, then each
// session as it is generated. It returns what Generate returns and the
// workload hash of the trace written; after an error what w holds is not
// a whole trace.
func (g *Generator) WriteTrace(ctx context.Context, w io.Writer) (Result, string, error) {
	tw, err := trace.NewWriter(w, g.Header())
	if err != nil {
		return Result{}, "", err
	}
	res, err := g.Generate(ctx, tw.Write)
	if err != nil {
		return res, "", err
	}
	hash, err := tw.Close()
	return res, hash, err
}
