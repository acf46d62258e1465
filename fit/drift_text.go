package fit

import (
	"fmt"
	"io"
)

// Verdict is the word a drift table gives a measure: ok within its
// bound, off past it.
func (m DriftMeasure) Verdict() string {
	if m.Off {
		return "off"
	}
	return "ok"
}

// WriteText writes the report as text of at most 100 columns (but for
// long client names): a block per client, its sessions then a row per
// measure (its figure in the log and the spec, the distance, its bound
// and verdict), then a line per thing off and the overall verdict.
func (r DriftReport) WriteText(w io.Writer) error {
	const row = "  %-14s %12s %12s %10s %8s  %s\n"
	for _, c := range r.Clients {
		fmt.Fprintf(w, "client %s (spec client %s): %d sessions, the spec's %d\n", c.Client, c.Spec, c.Sessions[0], c.Sessions[1])
		fmt.Fprintf(w, row, "measure", "log", "spec", "distance", "bound", "verdict")
		for _, m := range c.Measures {
			fmt.Fprintf(w, row, m.Name, fmt.Sprintf("%.4g", m.Log), fmt.Sprintf("%.4g", m.Spec),
				fmt.Sprintf("%.3f", m.Distance), fmt.Sprintf("%.3f", m.Bound), m.Verdict())
		}
	}
	for _, o := range r.Off {
		fmt.Fprintf(w, "off: %s\n", o)
	}
	verdict := "the spec describes the log"
	if len(r.Off) > 0 {
		verdict = "the spec no longer describes the log"
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}
