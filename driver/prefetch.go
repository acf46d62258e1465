package driver

import (
	"time"

	"surge/content/vision"
	"surge/trace"
)

// ImageLead is how long before an open-loop session's start the driver
// makes its turns' images, so that encoding them (tens of milliseconds
// for a large one) does not delay its sends.
const ImageLead = 2 * time.Second

// prefetch makes the images of the open-loop sessions that have any,
// in schedule order, each session's ImageLead before its start, until
// the sessions run out or the run halts. A send whose images are not made
// yet makes them itself, once (vision.Cache); closed-loop sessions, which
// have no schedule, always do.
func (r *run) prefetch(sessions []*trace.Session) {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for _, s := range sessions {
		t.Reset(time.Until(r.start.Add(s.At() - ImageLead)))
		select {
		case <-t.C:
		case <-r.halt:
			return
		case <-r.reqCtx.Done():
			return
		}
		for k := range s.Turns {
			for _, im := range s.Turns[k].Images {
				r.d.images.Get(vision.Key{W: im.W, H: im.H, Seed: im.Seed, Format: im.Format})
			}
		}
	}
}

// withImages returns the sessions of ss that carry images.
func withImages(ss []*trace.Session) []*trace.Session {
	var out []*trace.Session
	for _, s := range ss {
		for k := range s.Turns {
			if len(s.Turns[k].Images) > 0 {
				out = append(out, s)
				break
			}
		}
	}
	return out
}
