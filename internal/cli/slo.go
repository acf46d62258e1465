package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"surge/metrics"
	"surge/spec"
	"surge/trace"
)

// sloFlags are the SLO flags of run and sim: objectives replacing the
// workload's, and whether a verdict short of a pass fails the command.
type sloFlags struct {
	slo           string
	failOn        bool
	failOnInvalid bool
}

func (f *sloFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.slo, "slo", "", "objectives replacing the workload's: ttft.p99<=2s,tpot.p99<=100ms")
	fs.BoolVar(&f.failOn, "fail-on-slo", false, "exit 1 unless every SLO passes (early stopping at 99% confidence)")
	fs.BoolVar(&f.failOnInvalid, "fail-on-invalid", false, "exit 4 when the measurement is questionable (see the report's measurement line)")
}

// apply replaces h's SLOs with --slo's, when given.
func (f sloFlags) apply(h *trace.Header) error {
	if f.slo == "" {
		return nil
	}
	slos, err := spec.ParseSLOs(f.slo)
	if err != nil {
		return usageError{fmt.Errorf("--slo: %w", err)}
	}
	h.SLO = h.SLO[:0:0]
	for _, o := range slos {
		h.SLO = append(h.SLO, trace.SLO{Metric: o.Metric, Percentile: o.Percentile, BoundUS: o.Bound.Microseconds()})
	}
	return nil
}

// verdict returns an error saying why the measurement is questionable,
// when --fail-on-invalid asks for one, else one naming the SLOs of sum
// that did not pass, when --fail-on-slo asks for one. A questionable
// measurement comes first: it is why an SLO verdict cannot be trusted.
func (f sloFlags) verdict(sum *metrics.Summary) error {
	if f.failOnInvalid && !sum.Measurement.Valid() {
		return questionableError{fmt.Errorf("%s", sum.Measurement.Line())}
	}
	if !f.failOn {
		return nil
	}
	if len(sum.All.SLOs) == 0 {
		return usageError{fmt.Errorf("--fail-on-slo: the workload has no SLO (give --slo or an slo block)")}
	}
	var failed []string
	for _, c := range sum.All.SLOs {
		if c.Verdict != metrics.VerdictPass {
			failed = append(failed, fmt.Sprintf("%s %s: %s", c.Metric, metrics.PercentileName(c.Percentile), c.Verdict))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("SLO not met: %s", strings.Join(failed, "; "))
	}
	return nil
}
