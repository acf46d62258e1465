//go:build !linux

package cli

import "os/exec"

// pinned returns the command bin args: CPUs are only pinned on Linux.
func pinned(_ int, bin string, args ...string) *exec.Cmd { return exec.Command(bin, args...) }
