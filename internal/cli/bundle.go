package cli

import (
	"os"
	"strings"
)

// kernelRelease is the running kernel's release on Linux, or "".
func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
