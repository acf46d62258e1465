package metrics

import (
	"slices"
	"time"

	"surge/trace"
)

// seriesBuckets is about how many buckets Series makes when it chooses
// the width itself.
const seriesBuckets = 100

// Bucket is one interval [StartUS, EndUS) of a run's time series, in
// microseconds from the run's start. Every record is counted, warmup
// ones included (they load the server like any other); Warmup says how
// many of the bucket's Sent were warmup requests, so a reader can tell
// the warmup part of the run apart.
//
// A request counts in the bucket holding its instant: Scheduled at
// IntendedUS, Sent and Warmup at SentUS, OK and Errors at its completion
// SentUS + E2EUS, Dropped at IntendedUS.
type Bucket struct {
	StartUS int64 `json:"start_us"`
	EndUS   int64 `json:"end_us"`
	// Scheduled counts requests intended in the bucket, dropped ones
	// included.
	Scheduled int `json:"scheduled"`
	Sent      int `json:"sent"`    // requests written in the bucket
	Warmup    int `json:"warmup"`  // of Sent, those marked warmup
	OK        int `json:"ok"`      // requests completed without an error class
	Errors    int `json:"errors"`  // sent requests completed with an error class
	Dropped   int `json:"dropped"` // shed at the concurrency cap, never sent
	// OutputTokS is the output tokens per second the server produced in
	// the bucket. Each successful request's OutputTokens n is spread
	// evenly over its generation span [SentUS+TTFTUS, SentUS+E2EUS) of
	// length g, so the bucket gets n·|span ∩ bucket|/g of them (all n at
	// the completion instant when g is 0 or there was no first token);
	// the sum is divided by the bucket's width in seconds.
	OutputTokS float64 `json:"output_tok_s"`
	// InFlight counts the requests in flight at the bucket's end: sent
	// before EndUS and completing at or after it. Hence, bucket by bucket,
	// InFlight = previous InFlight + Sent − OK − Errors.
	InFlight int `json:"in_flight"`
	// TTFTP50US is the nearest-rank median TTFTUS of the TTFTN successful
	// requests sent in the bucket that had a first token, TTFTP90US and
	// TTFTP99US their nearest-rank p90 and p99; 0 when TTFTN is 0.
	TTFTP50US int64 `json:"ttft_p50_us"`
	TTFTP90US int64 `json:"ttft_p90_us"`
	TTFTP99US int64 `json:"ttft_p99_us"`
	TTFTN     int   `json:"ttft_n"`
}

// PerS is n events of the bucket as a rate per second of its width.
func (b Bucket) PerS(n int) float64 {
	if b.EndUS <= b.StartUS {
		return 0
	}
	return float64(n) / (float64(b.EndUS-b.StartUS) / 1e6)
}

// Series cuts the run of rs into buckets of the given width from the
// run's start to its end (the end line's duration, or the last intended
// send or completion when later) and counts what happened in each (see
// Bucket). A width of 0 or less chooses one: the run's length divided by
// 100, rounded up to a whole millisecond, so at most 100 buckets. Every
// bucket has the same width; the last one may reach past the run's end,
// and also holds its own end instant, so a request completing exactly at
// the run's end counts there. Requests that carried an injected fault are
// left out, as in every figure but the fault report. Series returns nil
// for a run without records.
func Series(rs *trace.Records, bucket time.Duration) []Bucket {
	if rs == nil || len(rs.Records) == 0 {
		return nil
	}
	span := seriesEnd(rs)
	width := bucket.Microseconds()
	if width <= 0 {
		width = autoWidth(span)
	}
	n := max(1, (span+width-1)/width)
	bs := make([]Bucket, n)
	for i := range bs {
		bs[i].StartUS, bs[i].EndUS = int64(i)*width, int64(i+1)*width
	}
	// in is the index of the bucket holding instant us; the last bucket
	// also holds its end instant, the run's end.
	in := func(us int64) int { return int(min(max(us/width, 0), n-1)) }
	ttft := make([][]int64, n)
	tokens := make([]float64, n)
	for i := range rs.Records {
		r := &rs.Records[i]
		if !Healthy.Has(r) {
			continue
		}
		bs[in(r.IntendedUS)].Scheduled++
		if r.ErrorClass == trace.ErrDropped {
			bs[in(r.IntendedUS)].Dropped++
			continue
		}
		tally(&bs[in(r.SentUS)], &bs[in(completion(r))], r)
		if r.OK() {
			spreadTokens(tokens, width, r)
			if _, ok := TTFT(r); ok {
				k := in(r.SentUS)
				ttft[k] = append(ttft[k], r.TTFTUS)
			}
		}
	}
	finishSeries(bs, ttft, tokens)
	return bs
}

// tally adds r, a sent request, to the buckets of its send and its
// completion.
func tally(sentIn, doneIn *Bucket, r *trace.Record) {
	sentIn.Sent++
	if r.Warmup {
		sentIn.Warmup++
	}
	if r.OK() {
		doneIn.OK++
	} else {
		doneIn.Errors++
	}
}

// finishSeries fills the derived fields of bs: in-flight counts, token
// rates and TTFT percentiles.
func finishSeries(bs []Bucket, ttft [][]int64, tokens []float64) {
	inFlight := 0
	for i := range bs {
		b := &bs[i]
		inFlight += b.Sent - b.OK - b.Errors
		b.InFlight = inFlight
		b.OutputTokS = tokens[i] / (float64(b.EndUS-b.StartUS) / 1e6)
		if v := ttft[i]; len(v) > 0 {
			slices.Sort(v)
			b.TTFTN = len(v)
			at := func(p float64) int64 { return v[Rank(p, len(v))-1] }
			b.TTFTP50US, b.TTFTP90US, b.TTFTP99US = at(50), at(90), at(99)
		}
	}
}

// spreadTokens adds the output tokens of r, a successful request, to the
// buckets its generation span overlaps, in proportion to the overlap.
func spreadTokens(tokens []float64, width int64, r *trace.Record) {
	n := float64(OutputTokens(r))
	last := int64(len(tokens) - 1)
	end := completion(r)
	from := r.SentUS + r.TTFTUS
	if r.TTFTUS <= 0 || from >= end {
		tokens[min(max(end/width, 0), last)] += n
		return
	}
	g := float64(end - from)
	for k := max(from/width, 0); k <= min(end/width, last); k++ {
		lo, hi := max(from, k*width), min(end, (k+1)*width)
		if k == last {
			hi = end // a span past the last bucket stays in it
		}
		if hi > lo {
			tokens[k] += n * float64(hi-lo) / g
		}
	}
}

// seriesEnd is the offset the series must reach: the run's duration from
// its end line, or the latest intended send or completion when later.
func seriesEnd(rs *trace.Records) int64 {
	var end int64
	if rs.End != nil {
		end = rs.End.DurationUS
	}
	for i := range rs.Records {
		r := &rs.Records[i]
		end = max(end, r.IntendedUS)
		if r.ErrorClass != trace.ErrDropped {
			end = max(end, completion(r))
		}
	}
	return end
}

// autoWidth is span/100 rounded up to a whole millisecond, at least 1 ms.
func autoWidth(span int64) int64 {
	const ms = 1000
	w := (span + seriesBuckets - 1) / seriesBuckets
	return max(ms, (w+ms-1)/ms*ms)
}
