package fit

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"surge/content"
	"surge/spec"
	"surge/trace"
	"surge/workload"
)

// Check generates a trace (lengths only) from a fitted spec, the YAML
// that Spec wrote for the clients of orig in order, and writes to w a
// table of each client's figures beside the original's: rate, gap CV,
// per-minute peak over mean, length quantiles and KS distances, and the
// input–output rank correlation.
func Check(ctx context.Context, w io.Writer, specYAML []byte, orig *Traffic) error {
	s, err := spec.Parse("fitted spec", specYAML)
	if err != nil {
		return fmt.Errorf("the fitted spec does not parse: %w", err)
	}
	regen, err := regenerate(ctx, s)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "client\t\trate/s\tgap CV\tpeak/mean\tinput p10\tp50\tp90\tp99\tKS\toutput p10\tp50\tp90\tp99\tKS\tSpearman\t")
	for i, name := range orig.Order {
		got := regen[s.Clients[i].Name]
		if got == nil {
			got = &Sample{}
		}
		writeCheckRows(tw, name, Compare(*orig.Samples[name], *got))
	}
	return tw.Flush()
}

// regenerate generates the sessions of s, without text, as a sample per
// client.
func regenerate(ctx context.Context, s *spec.Spec) (map[string]*Sample, error) {
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		return nil, err
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		return nil, err
	}
	g, err := workload.New(s, tok, synth, workload.Options{NoText: true})
	if err != nil {
		return nil, err
	}
	regen := map[string]*Sample{}
	_, err = g.Generate(ctx, func(ss *trace.Session) error {
		fs, ok := regen[ss.Client]
		if !ok {
			fs = &Sample{}
			regen[ss.Client] = fs
		}
		fs.Add(ss)
		return nil
	})
	return regen, err
}

// writeCheckRows writes the original's row and the fitted spec's of one
// client.
func writeCheckRows(w io.Writer, name string, cmp Comparison) {
	for k, label := range []string{"original", "fitted"} {
		ks := func(d float64) string {
			if k == 0 {
				return ""
			}
			return fmt.Sprintf("%.3f", d)
		}
		fmt.Fprintf(w, "%s\t%s\t%.4g\t%.3f\t%.3f\t%s%s\t%s%s\t%.3f\t\n", name, label, cmp.Rate[k], cmp.CV[k], cmp.PeakToMean[k],
			cells(cmp.In[k]), ks(cmp.KSIn), cells(cmp.Out[k]), ks(cmp.KSOut), cmp.Spearman[k])
	}
}

// cells formats quantiles as tab-separated cells.
func cells(q []float64) string {
	var s string
	for _, x := range q {
		s += fmt.Sprintf("%.4g\t", x)
	}
	return s
}
