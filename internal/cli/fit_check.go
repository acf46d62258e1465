package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"surge/content"
	"surge/fit"
	"surge/spec"
	"surge/trace"
	"surge/workload"
)

// checkFit generates a trace (lengths only) from the fitted spec and
// prints each client's figures beside the original's: rate, gap CV,
// per-minute peak over mean, length quantiles and KS distances, and the
// input–output rank correlation.
func checkFit(c *cobra.Command, specYAML []byte, samples map[string]*fit.Sample, order []string) error {
	s, err := spec.Parse("fitted spec", specYAML)
	if err != nil {
		return fmt.Errorf("fit --check: the fitted spec does not parse: %w", err)
	}
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		return err
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		return err
	}
	g, err := workload.New(s, tok, synth, workload.Options{NoText: true})
	if err != nil {
		return fmt.Errorf("fit --check: %w", err)
	}
	regen := map[string]*fit.Sample{}
	if _, err := g.Generate(c.Context(), func(ss *trace.Session) error {
		fs, ok := regen[ss.Client]
		if !ok {
			fs = &fit.Sample{}
			regen[ss.Client] = fs
		}
		addSample(fs, ss)
		return nil
	}); err != nil {
		return fmt.Errorf("fit --check: %w", err)
	}
	w := tabwriter.NewWriter(c.ErrOrStderr(), 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "client\t\trate/s\tgap CV\tpeak/mean\tinput p10\tp50\tp90\tp99\tKS\toutput p10\tp50\tp90\tp99\tKS\tSpearman\t")
	for i, name := range order {
		got := regen[s.Clients[i].Name]
		if got == nil {
			got = &fit.Sample{}
		}
		cmp := fit.Compare(*samples[name], *got)
		for k, label := range []string{"original", "fitted"} {
			ks := func(d float64) string {
				if k == 0 {
					return ""
				}
				return fmt.Sprintf("%.3f", d)
			}
			fmt.Fprintf(w, "%s\t%s\t%.4g\t%.3f\t%.3f\t%s%s\t%s%s\t%.3f\t\n", name, label, cmp.Rate[k], cmp.CV[k], cmp.PeakToMean[k],
				row(cmp.In[k]), ks(cmp.KSIn), row(cmp.Out[k]), ks(cmp.KSOut), cmp.Spearman[k])
		}
	}
	return w.Flush()
}

// row formats quantiles as tab-separated cells.
func row(q []float64) string {
	var s string
	for _, x := range q {
		s += fmt.Sprintf("%.4g\t", x)
	}
	return s
}
