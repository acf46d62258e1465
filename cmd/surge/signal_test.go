package main

import (
	"os"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// TestOnSignals: the first signal cancels the run, one within the grace
// of it is ignored (timeout -s INT sends two at once), and a later one
// exits at once with the shell's code for the signal.
func TestOnSignals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		at   []time.Duration // when each signal arrives, after the start
		sig  os.Signal
		exit int // the code exit is called with; 0: not called
	}{
		{"one interrupt cancels only", []time.Duration{0}, syscall.SIGINT, 0},
		{"timeout's pair: process then group", []time.Duration{0, 0}, syscall.SIGINT, 0},
		{"a second within the grace", []time.Duration{0, 900 * time.Millisecond}, syscall.SIGINT, 0},
		{"a second after the grace exits", []time.Duration{0, 1100 * time.Millisecond}, syscall.SIGINT, 130},
		{"timeout's pair, then a Ctrl-C", []time.Duration{0, 0, 3 * time.Second}, syscall.SIGINT, 130},
		{"SIGTERM's code", []time.Duration{0, 0, 2 * time.Second}, syscall.SIGTERM, 143},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sigs := make(chan os.Signal)
				cancelled, exit := 0, 0
				done := make(chan struct{})
				go func() {
					onSignals(sigs, func() { cancelled++ }, func(code int) { exit = code }, time.Second)
					close(done)
				}()
				start := time.Now()
				for _, at := range tt.at {
					time.Sleep(at - time.Since(start))
					sigs <- tt.sig
				}
				close(sigs)
				<-done
				if cancelled != 1 || exit != tt.exit {
					t.Errorf("cancelled %d times, exit(%d); want once, exit(%d)", cancelled, exit, tt.exit)
				}
			})
		})
	}
}
