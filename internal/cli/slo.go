package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"surge/spec"
	"surge/trace"
	"surge/workload"
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
	h.SLO = workload.SLOs(slos)
	return nil
}
