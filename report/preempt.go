package report

import (
	"fmt"
	"io"
	"strings"
)

// PreemptionText writes the line of a simulated run's report that says
// how many times the engine preempted a running request, evicting its KV
// blocks to make room and recomputing it later, against the requests it
// finished: a storm of them means the engine thrashed, a cost the
// latency figures carry but do not name.
func PreemptionText(w io.Writer, preemptions, finished int64) error {
	return PreemptionTextAt(w, preemptions, finished, TextWidth)
}

// PreemptionTextAt is PreemptionText wrapped to cols columns.
func PreemptionTextAt(w io.Writer, preemptions, finished int64, cols int) error {
	var b strings.Builder
	for _, l := range fieldLines(cols, "engine", fmt.Sprintf("%s preemptions for %s requests finished (running requests evicted to free KV blocks, then recomputed)",
		count(preemptions), count(finished))) {
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
