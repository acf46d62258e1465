package validation

import (
	"context"
	"fmt"
	"io"

	"surge/content"
	"surge/harness"
	"surge/metrics"
	"surge/spec"
)

// Group is the acceptance group of a metric.
type Group int

// The groups, in the order of the doc's tables.
const (
	Throughput Group = iota // output or request throughput, a run's duration
	ITL                     // inter-token latency, TPOT, a decode step
	TTFT                    // time to first token, a batch's prefill
	E2E                     // end-to-end latency
)

// Groups lists the groups in order.
var Groups = []Group{Throughput, ITL, TTFT, E2E}

func (g Group) String() string {
	return [...]string{"throughput", "ITL", "TTFT", "E2E"}[g]
}

// groupOf is the group of each metric the engine's report gives.
var groupOf = map[string]Group{
	"output_throughput": Throughput, "request_throughput": Throughput, "total_duration": Throughput,
	"itl_median": ITL, "itl_mean": ITL, "tpot_mean": ITL, "decode_step_time": ITL,
	"ttft_median": TTFT, "ttft_mean": TTFT, "prefill_time_batch": TTFT,
	"e2e_latency_mean": E2E,
}

// GroupOf returns the group of the case's metric.
func (c Case) GroupOf() Group { return groupOf[c.Row.Metric] }

// Summarize runs the case as `surge sim` does: the spec compiled in
// memory, the engine harness.NewVirtual configures from the flags, and
// harness.Run in virtual time, keeping no files. It returns the run's
// summary, whose figures every metric of the case's row is read from.
func (c Case) Summarize(ctx context.Context) (*metrics.Summary, error) {
	src, err := newSource()
	if err != nil {
		return nil, err
	}
	return c.summarize(ctx, src)
}

// source makes the prompts' text; one serves many runs.
type source struct {
	tok   content.Tokenizer
	synth *content.Synth
}

// newSource loads the specs' default tokenizer and its synthesiser.
func newSource() (source, error) {
	s, err := spec.Parse("row.yaml", []byte(Case{Requests: 1, Concurrency: 1, ISL: 1, OSL: 1}.Spec()))
	if err != nil {
		return source{}, fmt.Errorf("row spec: %w", err)
	}
	tok, err := content.Builtin(s.Tokenizer)
	if err != nil {
		return source{}, err
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	return source{tok, synth}, err
}

// summarize is Summarize with the prompts of src.
func (c Case) summarize(ctx context.Context, src source) (*metrics.Summary, error) {
	v, err := harness.NewVirtual(c.Engine, 1, "round-robin")
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", c.Flags(), err)
	}
	s, err := spec.Parse("row.yaml", []byte(c.Spec()))
	if err != nil {
		return nil, fmt.Errorf("row spec: %w", err)
	}
	w, err := harness.Compile(ctx, s, src.tok, src.synth)
	if err != nil {
		return nil, fmt.Errorf("compiling the row's workload: %w", err)
	}
	res, err := harness.Run(ctx, harness.Config{Workload: w, Virtual: v, Records: io.Discard})
	if err != nil {
		return nil, fmt.Errorf("running %s: %w", c.Flags(), err)
	}
	return res.Summary, nil
}

// Value reads the row's metric from sum, in the row's unit (the
// summary's latencies are in µs).
func (c Case) Value(sum *metrics.Summary) (float64, error) {
	a := &sum.All
	var v float64
	switch c.Row.Metric {
	case "output_throughput":
		return a.Throughput.OutputTokensPerS, nil
	case "request_throughput":
		return a.Throughput.RequestsPerS, nil
	case "total_duration":
		v = float64(sum.DurationUS)
	case "itl_median":
		v = p50(a.Latency.ITL)
	case "itl_mean", "decode_step_time":
		v = a.Latency.ITL.Mean
	case "tpot_mean":
		v = a.Latency.TPOT.Mean
	case "ttft_median":
		v = p50(a.Latency.TTFT)
	case "ttft_mean", "prefill_time_batch":
		v = a.Latency.TTFT.Mean
	case "e2e_latency_mean":
		v = a.Latency.E2E.Mean
	default:
		return 0, fmt.Errorf("metric %s not read from a summary", c.Row.Metric)
	}
	switch c.Row.Unit {
	case "ms":
		return v / 1e3, nil
	case "s":
		return v / 1e6, nil
	}
	return 0, fmt.Errorf("row unit %q for %s: want ms or s", c.Row.Unit, c.Row.Metric)
}

// p50 is the metric's median.
func p50(m metrics.Metric) float64 {
	for _, p := range m.Percentiles {
		if p.P == 50 {
			return p.Value
		}
	}
	return m.Mean
}
