package harness

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"surge/driver"
)

// liveEvery is how often the live progress line is redrawn.
const liveEvery = 500 * time.Millisecond

// showProgress shows d's progress while a run goes: a live line on
// cfg.Progress when set, else a line on cfg.Log every cfg.ProgressEvery
// when that is set. It returns a function that stops it.
func showProgress(cfg *Config, d *driver.Driver) func() {
	w, every, live := cfg.Progress, liveEvery, true
	if w == nil {
		w, every, live = cfg.Log, cfg.ProgressEvery, false
	}
	if w == nil || every <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				if live {
					fmt.Fprint(w, "\r\033[K")
				}
				return
			case <-tick.C:
				if live {
					fmt.Fprint(w, "\r\033[K"+progressLine(d.Progress()))
				} else {
					fmt.Fprintln(w, "surge: "+progressLine(d.Progress()))
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// progressLine is one line of a run's progress: elapsed, how far through
// the schedule and the time left, then the counters: requests sent and in
// flight, sessions started per second of those due per second ("9.8/10
// sessions/s"), errors and the median TTFT of the latest requests; at most
// 100 columns with "surge: " before it.
func progressLine(p driver.Progress) string {
	return fmt.Sprintf("%.0fs  %s  sent %d  in flight %d  %s/%s sessions/s  errors %d  TTFT %v",
		p.Elapsed.Seconds(), scheduleDone(p), p.Sent, p.InFlight, perSecond(p.AchievedRate), perSecond(p.TargetRate), p.Errors, p.TTFTp50.Round(time.Millisecond))
}

// perSecond writes a rate with a decimal below 100 and none above.
func perSecond(v float64) string {
	if v < 100 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// scheduleDone says how far p's run has gone through its schedule, as
// "42% ETA 1m10s", or "100% draining" once everything is due but
// requests are in flight. By time when the schedule has a span, else by
// sessions taken; "" when neither is known.
func scheduleDone(p driver.Progress) string {
	var frac float64
	var left time.Duration
	switch {
	case p.Span > 0:
		frac, left = min(p.Elapsed.Seconds()/p.Span.Seconds(), 1), max(p.Span-p.Elapsed, 0)
	case p.Sessions > 0 && p.Scheduled > 0:
		frac = min(float64(p.Scheduled)/float64(p.Sessions), 1)
		left = time.Duration(float64(p.Elapsed) * (1 - frac) / frac)
	default:
		return ""
	}
	if frac >= 1 {
		return "100% draining"
	}
	return fmt.Sprintf("%3.0f%% ETA %v", 100*frac, left.Round(time.Second))
}
