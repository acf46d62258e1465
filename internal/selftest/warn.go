package selftest

import "fmt"

// StreamTokenRate is the token rate of one stream, in tokens per second,
// that Warn assumes to turn a concurrency into token events per second:
// a fast decode (small models on a large GPU reach about 100).
const StreamTokenRate = 100

// warnShare is the share of the ceiling above which Warn warns.
const warnShare = 0.5

// Warn returns a warning when a run asks for more than half of what the
// self-test r measured, and "" otherwise (or when r has no points):
//
//   - rate, in requests per second (0: none asked), above half the
//     ceiling's streamed requests per second;
//   - concurrency streams (0: none), each delivering StreamTokenRate
//     tokens per second, above half the ceiling's token events per
//     second: concurrency·StreamTokenRate > ½·events/s.
//
// Past half its ceiling, surge's own work starts to show in the schedule
// lag and the measured latencies; the warning says so, with the figures.
func Warn(rate float64, concurrency int, r Result) string {
	req, ev := r.Ceiling()
	if req <= 0 {
		return ""
	}
	var msg string
	if rate > warnShare*req {
		msg = fmt.Sprintf("the requested %.0f req/s is %.0f%% of this machine's measured ceiling of %.0f streamed req/s", rate, 100*rate/req, req)
	}
	if need := float64(concurrency) * StreamTokenRate; ev > 0 && need > warnShare*ev {
		if msg != "" {
			msg += "; "
		}
		msg += fmt.Sprintf("%d concurrent streams at %d tokens/s each would need %.0f token events/s, %.0f%% of the measured ceiling of %.0f",
			concurrency, StreamTokenRate, need, 100*need/ev, ev)
	}
	if msg == "" {
		return ""
	}
	return fmt.Sprintf("warning: %s (surge selftest, %s, %d-token streams); above half of it surge's own work shows in the schedule lag and the latencies: spread the load over more client machines or cores", msg, r.At.Format("2006-01-02"), r.Tokens)
}
