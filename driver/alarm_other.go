//go:build !linux

package driver

import "time"

// kernelSleep does nothing here: waitUntil finishes on its timer.
func kernelSleep(time.Duration) {}
