package metrics

import (
	"cmp"
	"maps"
	"slices"

	"surge/trace"
)

// topMessages is how many distinct error messages Errors.Top keeps.
const topMessages = 3

// Message is one distinct error message and how many failures carried it.
type Message struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

// Errors counts a scope's measured failures. Failed requests are excluded
// from every latency figure but counted here; dropped requests (shed at
// the concurrency cap, never sent) are counted apart from failures.
type Errors struct {
	Failed int     `json:"failed"` // measured sent requests with an error class
	Rate   float64 `json:"rate"`   // Failed / measured sent requests
	// ByClass counts failures by trace error class (http, stream, timeout,
	// connection, cancelled).
	ByClass map[string]int `json:"by_class,omitempty"`
	// ByStatus counts failures by HTTP status; 0 means no status was
	// received (connection errors, timeouts before the headers).
	ByStatus map[int]int `json:"by_status,omitempty"`
	// Top are the most common distinct Error strings of the failures, at
	// most three, by count then text.
	Top     []Message `json:"top,omitempty"`
	Dropped int       `json:"dropped"`
	// DropRate is Dropped / (sent + dropped) measured requests.
	DropRate float64 `json:"drop_rate"`
}

// errorCounts counts the failures among the measured records of recs.
func errorCounts(recs []*trace.Record) Errors {
	var e Errors
	sentN := 0
	msgs := map[string]int{}
	for _, r := range recs {
		switch {
		case !measured(r):
		case r.ErrorClass == trace.ErrDropped:
			e.Dropped++
		case r.OK():
			sentN++
		default:
			sentN++
			e.Failed++
			if e.ByClass == nil {
				e.ByClass, e.ByStatus = map[string]int{}, map[int]int{}
			}
			e.ByClass[r.ErrorClass]++
			e.ByStatus[r.Status]++
			msgs[r.Error]++
		}
	}
	e.Top = top(msgs)
	if sentN > 0 {
		e.Rate = float64(e.Failed) / float64(sentN)
	}
	if n := sentN + e.Dropped; n > 0 {
		e.DropRate = float64(e.Dropped) / float64(n)
	}
	return e
}

// top returns the topMessages most common messages of counts, by count
// then text.
func top(counts map[string]int) []Message {
	var ms []Message
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		ms = append(ms, Message{Text: t, Count: counts[t]})
	}
	slices.SortStableFunc(ms, func(a, b Message) int { return cmp.Compare(b.Count, a.Count) })
	return ms[:min(len(ms), topMessages)]
}
