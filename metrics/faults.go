package metrics

import (
	"cmp"
	"slices"

	"surge/trace"
)

// Faults reports the faults a run injected on purpose (records with a
// Fault, and the header's fault windows). The scopes' figures leave the
// faulted records out: they describe the healthy requests.
type Faults struct {
	Classes []FaultClass  `json:"classes"`
	Windows []FaultImpact `json:"windows,omitempty"`
}

// FaultClass is how the server answered the measured requests that
// carried one kind of fault.
type FaultClass struct {
	Kind     string `json:"kind"`
	Requests int    `json:"requests"`
	OK       int    `json:"ok"`
	// ByStatus counts the requests by HTTP status (0: none came), and
	// ByClass the failed ones by error class.
	ByStatus map[int]int    `json:"by_status"`
	ByClass  map[string]int `json:"by_class,omitempty"`
	// Messages are the commonest error messages, most frequent first.
	Messages []Message `json:"messages,omitempty"`
	// AnswerP50US and AnswerP99US are the time to the server's answer:
	// its first byte, or the end of the request when none came.
	AnswerP50US float64 `json:"answer_p50_us"`
	AnswerP99US float64 `json:"answer_p99_us"`
}

// FaultImpact is what a storm or a burst did to the healthy requests:
// their TTFT (from the intended send time, so queueing counts) before,
// during and after the window, and how long TTFT took to recover.
type FaultImpact struct {
	trace.FaultWindow
	// BaselineP50US is the median TTFT+lag of the healthy successful
	// requests intended in the window's length before it (0: none).
	BaselineP50US float64 `json:"baseline_p50_us"`
	// DuringP50US and DuringP99US are over the healthy requests intended
	// in the window (a storm's lasts until the requests in flight at its
	// instant have ended); OutsideP50US and OutsideP99US over those
	// intended outside every window.
	DuringP50US  float64 `json:"during_p50_us"`
	DuringP99US  float64 `json:"during_p99_us"`
	OutsideP50US float64 `json:"outside_p50_us"`
	OutsideP99US float64 `json:"outside_p99_us"`
	// RecoveryUS is the time from the window's end until TTFT recovered:
	// the intended time of the first healthy request after it whose
	// TTFT+lag is within 10% of the baseline and which starts a run of
	// recoverySpan successive healthy requests whose median is too.
	// Recovered is false when that never happened before the run ended
	// (or there is no baseline).
	RecoveryUS int64 `json:"recovery_us"`
	Recovered  bool  `json:"recovered"`
	// Faulted counts the requests the window itself faulted (a storm's
	// cancellations).
	Faulted int `json:"faulted,omitempty"`
}

// recoverySpan is how many successive healthy requests must have a median
// TTFT within 10% of the baseline for TTFT to count as recovered.
const recoverySpan = 20

// split separates the records that carry a fault from the healthy ones,
// warmup included in both.
func split(recs []*trace.Record) (healthy, faulted []*trace.Record) {
	for _, r := range recs {
		if Healthy.Has(r) {
			healthy = append(healthy, r)
		} else {
			faulted = append(faulted, r)
		}
	}
	return healthy, faulted
}

// faults reports the faulted measured records and the header's windows
// against the healthy records; nil when the run injected no fault.
func faults(healthy, faulted []*trace.Record, windows []trace.FaultWindow) *Faults {
	if len(faulted) == 0 && len(windows) == 0 {
		return nil
	}
	f := &Faults{}
	byKind := map[string][]*trace.Record{}
	for _, r := range faulted {
		if Faulted.Has(r) {
			byKind[r.Fault] = append(byKind[r.Fault], r)
		}
	}
	for kind, rs := range byKind {
		f.Classes = append(f.Classes, faultClass(kind, rs))
	}
	slices.SortFunc(f.Classes, func(a, b FaultClass) int { return cmp.Compare(a.Kind, b.Kind) })
	spans := make([]span, len(windows))
	for i, w := range windows {
		spans[i] = span{w.AtUS, windowEnd(w, healthy)}
	}
	for i, w := range windows {
		f.Windows = append(f.Windows, impact(w, spans[i], spans, windows, healthy, faulted))
	}
	return f
}

// faultClass describes how the server answered rs, all of one kind.
func faultClass(kind string, rs []*trace.Record) FaultClass {
	fc := FaultClass{Kind: kind, Requests: len(rs), ByStatus: map[int]int{}}
	msgs := map[string]int{}
	answers := make([]float64, 0, len(rs))
	for _, r := range rs {
		fc.ByStatus[r.Status]++
		if r.OK() {
			fc.OK++
		} else {
			if fc.ByClass == nil {
				fc.ByClass = map[string]int{}
			}
			fc.ByClass[r.ErrorClass]++
			msgs[r.Error]++
		}
		answer := r.E2EUS
		if r.FirstByteUS > 0 {
			answer = r.FirstByteUS
		}
		answers = append(answers, float64(answer))
	}
	slices.Sort(answers)
	fc.AnswerP50US, fc.AnswerP99US = nearestRank(answers, 50), nearestRank(answers, 99)
	fc.Messages = top(msgs)
	return fc
}

// impact measures the effect of window w, spanning sp, on the healthy
// requests; all are the spans of every window, of the windows.
func impact(w trace.FaultWindow, sp span, all []span, windows []trace.FaultWindow, healthy, faulted []*trace.Record) FaultImpact {
	fi := FaultImpact{FaultWindow: w}
	from, to := sp.lo, sp.hi
	type obs struct {
		at  int64
		lat float64
	}
	var before, during, outside []float64
	var after []obs
	for _, r := range healthy {
		if !Succeeded.Has(r) || r.TTFTUS == 0 {
			continue
		}
		at, lat := r.IntendedUS, float64(FromIntended(r, r.TTFTUS))
		switch {
		case at >= from && at < to:
			during = append(during, lat)
		case at >= to:
			after = append(after, obs{at, lat})
		case at >= from-(to-from):
			before = append(before, lat)
		}
		if !inAny(at, all) {
			outside = append(outside, lat)
		}
	}
	if w.Kind == trace.FaultStorm {
		fi.Faulted = stormed(w, windows, faulted)
	}
	slices.Sort(before)
	slices.Sort(during)
	slices.Sort(outside)
	fi.BaselineP50US = nearestRank(before, 50)
	fi.DuringP50US, fi.DuringP99US = nearestRank(during, 50), nearestRank(during, 99)
	fi.OutsideP50US, fi.OutsideP99US = nearestRank(outside, 50), nearestRank(outside, 99)
	slices.SortFunc(after, func(a, b obs) int { return cmp.Compare(a.at, b.at) })
	buf := make([]float64, recoverySpan)
	bound := 1.1 * fi.BaselineP50US
	for i := 0; fi.BaselineP50US > 0 && i+recoverySpan <= len(after); i++ {
		if after[i].lat > bound {
			continue
		}
		for j := range buf {
			buf[j] = after[i+j].lat
		}
		slices.Sort(buf)
		if nearestRank(buf, 50) <= bound {
			fi.RecoveryUS, fi.Recovered = after[i].at-to, true
			break
		}
	}
	return fi
}

// stormed counts the measured requests storm w cancelled: those of its
// client marked "storm" whose first storm at or after their intended send
// is w, as the driver strikes only requests meant to be sent by a storm's
// instant. (A cancelled request's record ends at its last byte, before the
// storm instant, so its end cannot tell; its send can be later than the
// instant on a loaded machine, when the storm struck late.)
func stormed(w trace.FaultWindow, windows []trace.FaultWindow, faulted []*trace.Record) int {
	n := 0
	for _, r := range faulted {
		if !Faulted.Has(r) || r.Fault != trace.FaultStorm || r.Client != w.Client || r.IntendedUS > w.AtUS {
			continue
		}
		first := w.AtUS
		for _, o := range windows {
			if o.Kind == trace.FaultStorm && o.Client == w.Client && o.AtUS >= r.IntendedUS && o.AtUS < first {
				first = o.AtUS
			}
		}
		if first == w.AtUS {
			n++
		}
	}
	return n
}

// windowEnd is when window w ends: a burst's end, or for a storm (an
// instant) the latest completion of a healthy request (of recs) in flight
// at that instant.
func windowEnd(w trace.FaultWindow, recs []*trace.Record) int64 {
	if w.Kind != trace.FaultStorm {
		return w.AtUS + w.ForUS
	}
	end := w.AtUS
	for _, r := range recs {
		if r.SentUS <= w.AtUS && completion(r) > w.AtUS {
			end = max(end, completion(r))
		}
	}
	return end
}

// inAny reports whether offset at falls in any of the spans.
func inAny(at int64, spans []span) bool {
	for _, s := range spans {
		if at >= s.lo && at < s.hi {
			return true
		}
	}
	return false
}

// nearestRank is the nearest-rank p-th percentile of sorted v (0 when
// empty).
func nearestRank(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return v[Rank(p, len(v))-1]
}
