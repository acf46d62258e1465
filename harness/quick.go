package harness

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"math"

	"surge/content"
	"surge/spec"
	"surge/trace/importers"
)

// Quick is a workload given as vllm bench serve's options rather than a
// spec: its random dataset (spec.Bench), or a file of ShareGPT, BurstGPT
// or Mooncake imported and shaped by the same options.
type Quick struct {
	Bench spec.BenchOptions
	// Dataset is "random" (or "") for synthetic prompts, else the format
	// of the file at Path: sharegpt, burstgpt or mooncake.
	Dataset, Path string
	// Seed seeds an import's generated starts (ShareGPT's).
	Seed uint64
}

// random reports whether q is the synthetic dataset.
func (q Quick) random() bool { return q.Dataset == "" || q.Dataset == "random" }

// Check refuses a dataset surge cannot import, a file without its
// dataset or a dataset without its file, and Bench's mistakes; errors
// name vllm's flags.
func (q Quick) Check() error {
	switch {
	case q.random() && q.Path != "":
		return fmt.Errorf("--dataset-path needs --dataset-name sharegpt, burstgpt or mooncake")
	case q.random():
		return q.Bench.Check()
	case q.Dataset != "sharegpt" && q.Dataset != "burstgpt" && q.Dataset != "mooncake":
		return fmt.Errorf("--dataset-name %s: want random, sharegpt, burstgpt or mooncake (other traces: surge import FILE -o t.jsonl, then surge run t.jsonl)", q.Dataset)
	case q.Path == "":
		return fmt.Errorf("--dataset-name %s needs --dataset-path FILE", q.Dataset)
	}
	return q.Bench.Check()
}

// Spec is the spec of q's random dataset, changed by edit (nil: not).
func (q Quick) Spec(edit func(*spec.Spec) error) (*spec.Spec, error) {
	s, err := spec.Bench(q.Bench)
	if err != nil {
		return nil, ConfigError{err}
	}
	if edit != nil {
		if err := edit(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Load is q's workload, its files read from fsys; edit changes the
// random dataset's spec before it is compiled.
func (q Quick) Load(ctx context.Context, fsys fs.FS, edit func(*spec.Spec) error) (*Workload, error) {
	if err := q.Check(); err != nil {
		return nil, ConfigError{err}
	}
	if !q.random() {
		return q.dataset(ctx, fsys)
	}
	s, err := q.Spec(edit)
	if err != nil {
		return nil, err
	}
	w, err := CompileSpec(ctx, fsys, "quick mode", s)
	if err != nil {
		return nil, err
	}
	w.SpecText = s.Canonical()
	return w, nil
}

// dataset imports q's file: ShareGPT's conversations start at the
// request rate or run --max-concurrency at a time; a trace of requests
// keeps its first --num-prompts, rescaled to the request rate.
func (q Quick) dataset(ctx context.Context, fsys fs.FS) (*Workload, error) {
	o := q.Bench
	opts := DatasetOptions{Sessions: o.NumPrompts, Import: importers.ImportOptions{
		Format: importers.Format(q.Dataset), Model: o.Model, Seed: q.Seed, SkipBad: true}}
	finite := o.RequestRate > 0 && !math.IsInf(o.RequestRate, 1)
	switch sharegpt := opts.Import.Format == importers.FormatShareGPT; {
	case sharegpt && finite:
		opts.Import.Rate = o.RequestRate
	case sharegpt:
		opts.Import.Concurrency = cmp.Or(o.MaxConcurrency, o.NumPrompts)
	case finite:
		opts.Rate = o.RequestRate
	}
	if opts.Import.Format == importers.FormatShareGPT {
		tok, err := content.OpenFS(fsys, cmp.Or(o.Tokenizer, "o200k_base"))
		if err != nil {
			return nil, ConfigError{fmt.Errorf("--tokenizer: %w", err)}
		}
		opts.Import.Count = func(s string) int { return len(tok.Encode(s)) }
		opts.Import.Tokenizer, opts.Import.TokenizerHash = tok.Name(), content.Fingerprint(tok)
	}
	return Dataset(ctx, fsys, []string{q.Path}, opts)
}
