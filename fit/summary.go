package fit

import "fmt"

// Summary says in one line what c's fits found: its arrivals, mean rate
// and gap law with its KS distance and grade, and the grades of its input
// and output lengths, as surge fit prints it.
func (c Client) Summary() string {
	a, l := c.Arrivals, c.Lengths
	if c.Concurrency > 0 {
		return fmt.Sprintf("%s: %d sessions, closed loop (%d in flight), input %s, output %s",
			c.Name, c.Sessions, c.Concurrency, l.Input.Grade, l.Output.Grade)
	}
	return fmt.Sprintf("%s: %d arrivals, %.4g/s, gaps %s (KS %.3f, %s), input %s, output %s",
		c.Name, a.N, a.Rate, a.Gaps.Best.Family, a.Gaps.Best.KS, a.Gaps.Grade, l.Input.Grade, l.Output.Grade)
}
