package client

import (
	"context"
	"time"
)

// pacer slows the reading of a response on purpose: a slow reader
// (Request.ReadRate) or a stalled one (Request.Stall).
type pacer struct {
	size    int           // bytes to ask for per read
	rate    int           // bytes per second; 0: no limit
	stall   time.Duration // pause after the first token; 0: none
	start   time.Time
	read    int64
	stalled bool
}

// newPacer paces reads into a buffer of bufLen bytes as req asks. A slow
// reader reads a tenth of a second's worth at a time, so its pace is
// smooth rather than one buffer per many seconds.
func newPacer(req *Request, bufLen int) pacer {
	p := pacer{size: bufLen, rate: req.ReadRate, stall: req.Stall, start: time.Now()}
	if p.rate > 0 {
		p.size = min(bufLen, max(p.rate/10, 1))
	}
	return p
}

// wait sleeps as the pace asks after a read of n bytes; first says a
// token has arrived. It reports false if ctx ended while it slept.
func (p *pacer) wait(ctx context.Context, n int, first bool) bool {
	var d time.Duration
	if p.stall > 0 && first && !p.stalled {
		p.stalled = true
		d = p.stall
		p.start = p.start.Add(p.stall) // the stall is not reading time
	}
	if p.rate > 0 {
		p.read += int64(n)
		due := p.start.Add(time.Duration(float64(p.read) / float64(p.rate) * float64(time.Second)))
		d = max(d, time.Until(due))
	}
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
