//go:build !unix

package selftest

import "errors"

// ReadCPU returns the CPU time this process has used so far; this system
// has no getrusage, so it always fails.
func ReadCPU() (CPU, error) {
	return CPU{}, errors.New("reading the process's CPU time: not supported on this system")
}
