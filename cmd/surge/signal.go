package main

import (
	"context"
	"os"
	"syscall"
	"time"
)

// signalGrace is how long after the first interrupt a second one is taken
// for the same request: `timeout -s INT` signals surge and then its
// process group, so surge sees two interrupts at once.
const signalGrace = time.Second

// onSignals cancels the run at the first signal from sigs, so it stops
// scheduling and writes what it saw; ignores any that follow within
// grace of it; and calls exit at once with 128 plus the signal's number
// at any later one. It returns when sigs is closed.
func onSignals(sigs <-chan os.Signal, cancel context.CancelFunc, exit func(code int), grace time.Duration) {
	var first time.Time
	for sig := range sigs {
		switch {
		case first.IsZero():
			first = time.Now()
			cancel()
		case time.Since(first) > grace:
			exit(exitCode(sig))
		}
	}
}

// exitCode is the shell's code for a process ended by sig: 128 plus its
// number (130 for SIGINT).
func exitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}
