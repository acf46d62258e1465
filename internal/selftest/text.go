package selftest

import (
	"fmt"
	"io"
)

// WriteText writes r's points and its ceiling as a table.
func (r Result) WriteText(w io.Writer) {
	where := "in-process zero-delay server"
	if r.SeparateServer {
		where = "zero-delay server in a process of its own"
	}
	fmt.Fprintf(w, "%s · %d CPUs (GOMAXPROCS %d) · %d-token streams · %s, sharing the cores\n\n", r.Version, r.CPUs, r.Procs, r.Tokens, where)
	fmt.Fprintf(w, "%11s %14s %16s %8s %7s\n", "concurrency", "streamed req/s", "token events/s", "CPU", "failed")
	for _, p := range r.Points {
		fmt.Fprintf(w, "%11d %14s %16s %7.2fs %7d\n", p.Concurrency, thousands(p.RequestsPerS), thousands(p.TokenEventsPerS), p.CPUSeconds, p.Failed)
	}
	req, ev := r.Ceiling()
	fmt.Fprintf(w, "\nceiling     %s streamed req/s, %s token events/s; surge run warns above half of it\n", thousands(req), thousands(ev))
}

// thousands formats v rounded to a whole number with commas.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var out []byte
	for i, ch := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, ch)
	}
	return string(out)
}
