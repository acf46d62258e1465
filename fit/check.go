package fit

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"surge/content"
	"surge/spec"
	"surge/trace"
	"surge/workload"
)

// The bounds Check holds a regenerated trace to: its total count within
// TotalBound of the original's, and the count of every client with at
// least BoundFrom sessions within ClientBound of its own.
const (
	TotalBound  = 0.02
	ClientBound = 0.10
	BoundFrom   = 500
	// MixBound bounds the total variation distance between a client's
	// regenerated content styles and the styles its trace's categories
	// stand for (clients of at least BoundFrom sessions).
	MixBound = 0.05
)

// CheckReport is what Check found: each client's comparison, in the
// original's order, and the clients and totals off by more than their
// bounds.
type CheckReport struct {
	Names       []string
	Comparisons []Comparison
	// Total is the sessions of the original and of the regenerated trace.
	Total [2]int
	// Off lists what is beyond its bound, one line each.
	Off []string
}

// Err returns an error naming what is off, or nil.
func (r CheckReport) Err() error {
	if len(r.Off) == 0 {
		return nil
	}
	return fmt.Errorf("the fitted spec is off: %s", strings.Join(r.Off, "; "))
}

// Check generates a trace (lengths only) from a fitted spec, the YAML
// that Spec wrote for clients, fitted to orig, and writes to w a
// table of each client's figures beside the original's: sessions, rate,
// gap CV, per-minute peak over mean and CV, zero gaps and the index of
// dispersion of counts per second, length quantiles and KS distances,
// the input–output rank correlation, and the share of first prompt
// tokens an earlier first prompt held (prefix reuse), then a line per
// client whose trace names categories (its query mix's distance) and per
// client of episodes. It reports the clients whose count is off by more
// than ClientBound or whose query mix is off by more than MixBound (those
// of at least BoundFrom sessions) and a total off by more than
// TotalBound. A trace's client
// that Clients split is compared with its parts together. A trace of
// fewer than CheckTurns requests has its lengths and episodes compared
// with several regenerations (see CheckTurns), its sessions and times
// with one.
func Check(ctx context.Context, w io.Writer, specYAML []byte, orig *Traffic, clients []Client) (CheckReport, error) {
	var r CheckReport
	s, err := spec.Parse("fitted spec", specYAML)
	if err != nil {
		return r, fmt.Errorf("the fitted spec does not parse: %w", err)
	}
	n := 0
	for _, fs := range orig.Samples {
		n += len(fs.In)
	}
	regen, err := regenerateReplicas(ctx, s, replicas(n))
	if err != nil {
		return r, err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "client\t\tsessions\trate/s\tgap CV\tzero gaps\tdisp 1s\tmin CV\tpeak/mean\tinput p10\tp50\tp90\tp99\tKS\toutput p10\tp50\tp90\tp99\tKS\tSpearman\treuse\treasoning\t")
	parts := map[string][]string{} // a trace's client's clients in the spec
	for _, c := range clients {
		of := cmp.Or(c.Of, c.Name)
		parts[of] = append(parts[of], clientName(c.Name))
	}
	for _, name := range orig.Order {
		got := &Sample{}
		for _, p := range parts[name] {
			if r := regen[p]; r != nil {
				got.merge(r)
			}
		}
		c := Compare(*orig.Samples[name], *got)
		writeCheckRows(tw, name, c)
		r.Names, r.Comparisons = append(r.Names, name), append(r.Comparisons, c)
		r.Total[0], r.Total[1] = r.Total[0]+c.Sessions[0], r.Total[1]+c.Sessions[1]
		if c.Mix && c.Sessions[0] >= BoundFrom && c.MixTV > MixBound {
			r.Off = append(r.Off, fmt.Sprintf("client %s: query mix %.3f from the trace's by total variation (bound %.2f)", name, c.MixTV, MixBound))
		}
		if n := c.Sessions; n[0] >= BoundFrom && off(n, ClientBound) {
			r.Off = append(r.Off, fmt.Sprintf("client %s: %d sessions, the trace %d (bound ±%.0f%%)", name, n[1], n[0], 100*ClientBound))
		}
	}
	if off(r.Total, TotalBound) {
		r.Off = append(r.Off, fmt.Sprintf("in all %d sessions, the trace %d (bound ±%.0f%%)", r.Total[1], r.Total[0], 100*TotalBound))
	}
	if err := tw.Flush(); err != nil {
		return r, err
	}
	for i, c := range r.Comparisons {
		if c.Mix {
			fmt.Fprintf(w, "query mix of %s: content styles %.3f from the trace's categories by total variation\n", r.Names[i], c.MixTV)
		}
		if c.Episodes {
			fmt.Fprintf(w, "episodes of %s: steps KS %.3f, context growth KS %.3f, contexts shrinking at %.1f%% of later turns (the trace %.1f%%)\n",
				r.Names[i], c.KSSteps, c.KSGrowth, 100*c.Shrinks[1], 100*c.Shrinks[0])
		}
	}
	for _, o := range r.Off {
		fmt.Fprintf(w, "off: %s\n", o)
	}
	return r, nil
}

// off reports whether the regenerated count n[1] is off the original's
// n[0] by more than the relative bound.
func off(n [2]int, bound float64) bool {
	return math.Abs(float64(n[1]-n[0])) > bound*float64(n[0])
}

// regenerate generates the sessions of s, without text, as a sample per
// client.
func regenerate(ctx context.Context, s *spec.Spec) (map[string]*Sample, error) {
	tok, synth, err := regenText(s)
	if err != nil {
		return nil, err
	}
	return regenerateWith(ctx, s, tok, synth)
}

// regenText returns the tokenizer and synthesiser a regeneration of s
// uses: the task styles' tables built only when its content mix names
// one (workload.NeedsTasks).
func regenText(s *spec.Spec) (content.Tokenizer, *content.Synth, error) {
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		return nil, nil, err
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{Tasks: workload.NeedsTasks(s)})
	return tok, synth, err
}

// regenerateWith is regenerate with the given tokenizer and synthesiser.
func regenerateWith(ctx context.Context, s *spec.Spec, tok content.Tokenizer, synth *content.Synth) (map[string]*Sample, error) {
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
		fmt.Fprintf(w, "%s\t%s\t%d\t%.4g\t%.3f\t%.3f\t%.3g\t%.3f\t%.3f\t%s%s\t%s%s\t%.3f\t%.1f%%\t%.1f%%\t\n", name, label, cmp.Sessions[k], cmp.Rate[k], cmp.CV[k],
			cmp.ZeroShare[k], cmp.Dispersion[k], cmp.MinuteCV[k], cmp.PeakToMean[k],
			cells(cmp.In[k]), ks(cmp.KSIn), cells(cmp.Out[k]), ks(cmp.KSOut), cmp.Spearman[k], 100*cmp.Reuse[k], 100*cmp.ReasoningShare[k])
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
