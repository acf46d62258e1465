package selftest

import "time"

// CPU is an amount of processor time used by a process: in user code and
// in the kernel on its behalf.
type CPU struct {
	User, System time.Duration
}

// Total is User + System.
func (c CPU) Total() time.Duration { return c.User + c.System }

// Sub returns the CPU time used between o and c, two readings of ReadCPU
// with o the earlier.
func (c CPU) Sub(o CPU) CPU { return CPU{User: c.User - o.User, System: c.System - o.System} }

// Share is the CPU time used per second of wall time over wall, in cores:
// 1.5 means one and a half cores busy on average; 0 when wall is not
// positive.
func (c CPU) Share(wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return c.Total().Seconds() / wall.Seconds()
}
