//go:build unix

package selftest

import (
	"fmt"
	"syscall"
	"time"
)

// ReadCPU returns the CPU time this process has used so far, every
// goroutine and thread together (getrusage RUSAGE_SELF).
func ReadCPU() (CPU, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return CPU{}, fmt.Errorf("reading the process's CPU time: %w", err)
	}
	return CPU{User: time.Duration(ru.Utime.Nano()), System: time.Duration(ru.Stime.Nano())}, nil
}
