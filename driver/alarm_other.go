//go:build !linux

package driver

import "time"

// alarm does nothing here: the dispatcher's timer alone wakes it.
type alarm struct{}

// newAlarm returns nil, an alarm that does nothing.
func newAlarm() *alarm { return nil }

// set does nothing.
func (*alarm) set(time.Duration) {}

// close does nothing.
func (*alarm) close() {}
