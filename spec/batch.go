package spec

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"surge/dist"
)

// MaxJobSize is the most requests a batch job holds. A job is one trace
// line, so a larger one would make lines of hundreds of megabytes; Parse
// refuses a size that is always larger, and the workload compiler clamps
// each sample to it.
const MaxJobSize = 100_000

// Batch is the shape of offline jobs (session kind batch): each session is
// one job of Size independent requests, released at the job's start or
// spread uniformly over the Window after it, all due to complete within
// Deadline of the start. The session's start (its arrival, or the
// closed-loop driver starting it) is the job's start. Each request's
// prompt and output lengths are the client's input and output.
type Batch struct {
	// Size is the number of requests per job, rounded and kept within
	// [1, MaxJobSize].
	Size dist.Dist
	// Window is how long after the job's start its requests are
	// released, each at an independent uniform offset in [0, Window);
	// 0 releases them all at the start.
	Window time.Duration
	// Deadline is how long after its start the job should be complete,
	// for the report; 0 means none.
	Deadline time.Duration
}

// batchKeys are the session keys of kind batch.
var batchKeys = []string{"size", "window", "deadline"}

// batch reads the batch keys of a session block.
func (d *decoder) batch(o *object) *Batch {
	b := &Batch{}
	b.Size = d.counts(o, "size", "requests per job, like size: 100 or {dist: uniform, min: 50, max: 500}",
		MaxJobSize, fmt.Sprintf("%d requests, the largest job", MaxJobSize))
	field(o, "window", d.duration, &b.Window)
	if field(o, "deadline", d.duration, &b.Deadline) && d.check(o, "deadline", b.Deadline == 0, "deadline must be > 0 (leave it out for none)") {
		d.check(o, "deadline", b.Window > b.Deadline, "deadline %s is shorter than the window %s: requests released after it cannot meet it",
			FormatDuration(b.Deadline), FormatDuration(b.Window))
	}
	return b
}

// only reports whether kind is want; when it is not, it reports each of
// keys present in o as belonging to sessions of kind want.
func (d *decoder) only(o *object, kind, want string, keys []string) bool {
	if kind == want {
		return true
	}
	for _, k := range keys {
		d.check(o, k, o.has(k), "%s is for %s sessions; add kind: %s", k, want, want)
	}
	return false
}

// counts reads a required distribution of a whole count under key, such as
// documents per request: rounded when sampled and kept within [1, limit].
// One that never reaches 1, or is always above limit, is refused; over
// says what limit is ("the 50 documents"). limit ≤ 0 means no limit is
// known (its key failed to decode).
func (d *decoder) counts(o *object, key, hint string, limit int, over string) dist.Dist {
	n, path, ok := d.require(o, key, hint)
	if !ok {
		return nil
	}
	dd := d.dist(n, path, 0)
	q, isQ := dd.(dist.Quantiler)
	switch {
	case dd == nil || !isQ:
	case q.Quantile(1) < 1:
		d.errorf(d.value(n, path), path, "%s never reaches 1 (%s)", key, dd)
		return nil
	case limit > 0 && q.Quantile(0) > float64(limit):
		d.errorf(d.value(n, path), path, "%s is always more than %s (%s)", key, over, dd)
		return nil
	}
	return dd
}

// writeBatch renders the session block of a batch client; a deadline of 0
// (none) is left out.
func writeBatch(b *bytes.Buffer, s Session) {
	j := s.Batch
	fmt.Fprintf(b, "    session:\n      kind: batch\n      size: %s\n      window: %s\n",
		strconv.Quote(j.Size.String()), FormatDuration(j.Window))
	if j.Deadline > 0 {
		fmt.Fprintf(b, "      deadline: %s\n", FormatDuration(j.Deadline))
	}
	fmt.Fprintf(b, "      history: %s\n", s.History)
}
