package k8s

import (
	"context"

	"surge/content"
	"surge/spec"
	"surge/trace"
	"surge/workload"
)

// Compile generates the sessions of s in memory without prompt text: their
// times and lengths are all PlanLoad needs. A cancelled ctx ends it with
// an error wrapping ctx's.
func Compile(ctx context.Context, s *spec.Spec, tok content.Tokenizer, synth *content.Synth) (trace.Header, []*trace.Session, error) {
	g, err := workload.New(s, tok, synth, workload.Options{NoText: true})
	if err != nil {
		return trace.Header{}, nil, err
	}
	var sessions []*trace.Session
	_, err = g.Generate(ctx, func(s *trace.Session) error {
		sessions = append(sessions, s)
		return nil
	})
	if err != nil {
		return trace.Header{}, nil, err
	}
	return g.Header(), sessions, nil
}
