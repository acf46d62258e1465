package compare

import (
	"fmt"
	"strings"
)

// Overlooked returns the unjudged gates whose row changed by a large but
// underpowered amount, unless FailOnUnjudged makes them fail: a large
// regression on too few requests that would otherwise pass unseen.
func (r *Result) Overlooked() []GateResult {
	if r.FailOnUnjudged {
		return nil
	}
	var out []GateResult
	for _, g := range r.Gates {
		if row := r.Row(g.Gate.Row); g.Verdict == VerdictUnjudged && row != nil && row.Underpowered {
			out = append(out, g)
		}
	}
	return out
}

// Err names the gates that fail the comparison, each with the
// candidate's change when it was violated and the reason; it is nil when
// none failed.
func (r *Result) Err() error {
	failed := r.Failed()
	if len(failed) == 0 {
		return nil
	}
	msgs := make([]string, len(failed))
	for i, g := range failed {
		msgs[i] = fmt.Sprintf("%s %s", g.Gate, g.Verdict)
		if row := r.Row(g.Gate.Row); row != nil && g.Verdict == VerdictFail {
			unit := "%"
			if row.Absolute {
				unit = " points"
			}
			msgs[i] += fmt.Sprintf(" (candidate %+.1f%s)", 100*row.Delta, unit)
		}
		msgs[i] += ": " + g.Reason
	}
	return fmt.Errorf("%d of %d gates failed: %s", len(failed), len(r.Gates), strings.Join(msgs, "; "))
}
