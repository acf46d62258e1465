package metrics

import (
	"encoding/json"
	"math"
	"slices"

	"surge/trace"
)

// Window is the measurement window, in microseconds from the run's start:
// from the earliest intended or sent time of any measured record (sent or
// dropped) to the latest completion (SentUS + E2EUS) of any measured sent
// record, failed ones included. Every scope's rates divide by the same
// window, so per-client rates add up to the whole run's.
type Window struct {
	StartUS int64 `json:"start_us"`
	EndUS   int64 `json:"end_us"`
}

// Seconds is the window's length in seconds; 0 when it is empty.
func (w Window) Seconds() float64 {
	if w.EndUS <= w.StartUS {
		return 0
	}
	return float64(w.EndUS-w.StartUS) / 1e6
}

// ThroughputWindow is the window every throughput of a run divides by,
// open or closed loop: from the earliest intended or sent time of a
// measured record to the latest completion of a measured sent record (see
// Window). The run report, its JSON and CSV, compare and each point of a
// sweep take their rates over it, so a sweep point's throughput is its
// own report's.
//
// An open-loop run's window holds the drain after the last send, when the
// last requests finish with nothing arriving: a server that keeps up is
// credited with its requests over the time it took to serve them, and one
// that fell behind with what it completed while it worked through its
// queue. A closed-loop run has no schedule to end the load: the window
// runs to the last completion, and never collapses to nothing when the
// measured requests were all sent at one instant (every slot filled at
// once).
func ThroughputWindow(recs []*trace.Record) Window {
	w := Window{StartUS: math.MaxInt64, EndUS: math.MinInt64}
	for _, r := range recs {
		if !measured(r) {
			continue
		}
		w.StartUS = min(w.StartUS, r.IntendedUS)
		if r.ErrorClass != trace.ErrDropped {
			w.StartUS = min(w.StartUS, r.SentUS)
			w.EndUS = max(w.EndUS, completion(r))
		}
	}
	if w.EndUS < w.StartUS {
		return Window{}
	}
	return w
}

// Throughput is a scope's rates over the measurement window. Token rates
// count successful requests only, with InputTokens and OutputTokens per
// request.
type Throughput struct {
	Requests         int     `json:"requests"` // successful measured requests
	RequestsPerS     float64 `json:"requests_per_s"`
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	InputTokensPerS  float64 `json:"input_tokens_per_s"`
	OutputTokensPerS float64 `json:"output_tokens_per_s"`
	// OutputSource says where output counts came from: "server" (usage in
	// every request that generates tokens), "chunks" (in none), "mixed",
	// or "" (no such request).
	OutputSource string `json:"output_source"`
	// OutputNotApplicable says why a scope has no output to count
	// (EmbeddingsReason, ScoresReason, PooledReason: its requests were
	// all embeddings, rerank or score requests); the
	// output figures are then left out of JSON, and reports show n/a.
	OutputNotApplicable string `json:"output_not_applicable,omitempty"`
	// Inputs counts the texts the successful embeddings requests
	// embedded, InputsPerS their rate; 0 without such requests.
	Inputs     int64   `json:"inputs,omitempty"`
	InputsPerS float64 `json:"inputs_per_s,omitempty"`
	// Documents counts the documents the successful rerank and score
	// requests scored, DocumentsPerS their rate; 0 without such requests.
	Documents     int64   `json:"documents,omitempty"`
	DocumentsPerS float64 `json:"documents_per_s,omitempty"`
	// ImageRequests counts the successful requests that sent images;
	// Images their images and ImageTokens those images' tokens, by the
	// trace's counts (trace.Record.ImageTokens), not in InputTokens;
	// ImageTokensPerRequest is ImageTokens / ImageRequests. All 0
	// without images.
	ImageRequests         int     `json:"image_requests,omitempty"`
	Images                int64   `json:"images,omitempty"`
	ImageTokens           int64   `json:"image_tokens,omitempty"`
	ImageTokensPerRequest float64 `json:"image_tokens_per_request,omitempty"`
	// SendRatePerS is (n−1)/(last − first SentUS) over the n measured sent
	// requests of open-loop clients; ScheduledRatePerS the same over
	// IntendedUS of every measured request of open-loop clients, dropped
	// ones included. Both are 0 when n < 2. Clients named in
	// Options.ClosedLoop have no schedule and are left out of both;
	// RateExcluded counts their measured requests.
	SendRatePerS      float64 `json:"send_rate_per_s"`
	ScheduledRatePerS float64 `json:"scheduled_rate_per_s"`
	RateExcluded      int     `json:"rate_excluded,omitempty"`
	// Concurrency counts requests in flight, each over [SentUS,
	// SentUS+E2EUS), warmup ones included, within the window: its peak and
	// its time-weighted mean ∫c(t)dt / window.
	PeakConcurrency int     `json:"peak_concurrency"`
	MeanConcurrency float64 `json:"mean_concurrency"`
}

// throughput computes the rates of recs over the calc's window.
func (c *calc) throughput(recs []*trace.Record) Throughput {
	var t Throughput
	server, generating := 0, 0
	for _, r := range recs {
		if !succeeded(r) {
			continue
		}
		t.Requests++
		t.Inputs += int64(r.Inputs)
		t.Documents += int64(r.Documents)
		t.InputTokens += int64(InputTokens(r))
		t.OutputTokens += int64(OutputTokens(r))
		if r.Images > 0 {
			t.ImageRequests++
			t.Images += int64(r.Images)
			t.ImageTokens += int64(r.ImageTokens)
		}
		if !r.Pooled() {
			generating++ // an embeddings, rerank or score request has no output to count
		}
		if r.ServerOutputTokens > 0 {
			server++
		}
	}
	t.OutputSource = source(server, generating)
	if t.ImageRequests > 0 {
		t.ImageTokensPerRequest = float64(t.ImageTokens) / float64(t.ImageRequests)
	}
	if why := pooledReason(recs); why != "" {
		t.OutputNotApplicable, t.OutputSource = why, ""
	}
	if secs := c.window.Seconds(); secs > 0 {
		t.RequestsPerS = float64(t.Requests) / secs
		t.InputsPerS = float64(t.Inputs) / secs
		t.DocumentsPerS = float64(t.Documents) / secs
		t.InputTokensPerS = float64(t.InputTokens) / secs
		t.OutputTokensPerS = float64(t.OutputTokens) / secs
	}
	open := func(in func(*trace.Record) bool) func(*trace.Record) bool {
		return func(r *trace.Record) bool { return in(r) && !c.opts.ClosedLoop[r.Client] }
	}
	for _, r := range recs {
		if measured(r) && c.opts.ClosedLoop[r.Client] {
			t.RateExcluded++
		}
	}
	t.SendRatePerS = rate(recs, open(sent), func(r *trace.Record) int64 { return r.SentUS })
	t.ScheduledRatePerS = rate(recs, open(measured), func(r *trace.Record) int64 { return r.IntendedUS })
	t.PeakConcurrency, t.MeanConcurrency = c.concurrency(recs)
	return t
}

// source names where n of total counts came from.
func source(server, total int) string {
	switch {
	case total == 0:
		return ""
	case server == total:
		return "server"
	case server == 0:
		return "chunks"
	}
	return "mixed"
}

// rate is (n−1)/(last − first) per second over the times at(r) of the n
// records in population in: the unbiased rate of a renewal stream.
func rate(recs []*trace.Record, in func(*trace.Record) bool, at func(*trace.Record) int64) float64 {
	n, first, last := 0, int64(math.MaxInt64), int64(math.MinInt64)
	for _, r := range recs {
		if in(r) {
			n++
			first, last = min(first, at(r)), max(last, at(r))
		}
	}
	if n < 2 || last <= first {
		return 0
	}
	return float64(n-1) / (float64(last-first) / 1e6)
}

// concurrency sweeps the in-flight intervals of every sent record of recs
// (warmup included: it occupies the server during the window) and
// returns the peak count and the time-weighted mean within the window.
// Each event is encoded as time<<1 | start (1) or end (0) and sorted; all
// events of one instant are applied before the count is read, so a
// request starting as another ends does not overlap it.
func (c *calc) concurrency(recs []*trace.Record) (peak int, mean float64) {
	w := c.window
	if w.Seconds() == 0 {
		return 0, 0
	}
	ev := make([]int64, 0, 2*len(recs))
	for _, r := range recs {
		if r.ErrorClass != trace.ErrDropped {
			ev = append(ev, r.SentUS<<1|1, completion(r)<<1)
		}
	}
	slices.Sort(ev)
	var area float64
	n := 0
	for i := 0; i < len(ev); {
		t := ev[i] >> 1
		for ; i < len(ev) && ev[i]>>1 == t; i++ {
			n += int(ev[i]&1)*2 - 1
		}
		next := w.EndUS
		if i < len(ev) {
			next = ev[i] >> 1
		}
		// n requests are in flight over [t, next); keep its part in the window.
		lo, hi := max(t, w.StartUS), min(next, w.EndUS)
		if hi > lo {
			area += float64(n) * float64(hi-lo)
			peak = max(peak, n)
		}
	}
	return peak, area / float64(w.EndUS-w.StartUS)
}

// MarshalJSON writes t; a scope with no output to count
// (OutputNotApplicable) is written without its output figures, so that no
// rate of 0 stands in for one that does not exist.
func (t Throughput) MarshalJSON() ([]byte, error) {
	type plain Throughput // without this method
	b, err := json.Marshal(plain(t))
	if err != nil || t.OutputNotApplicable == "" {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for _, k := range []string{"output_tokens", "output_tokens_per_s", "output_source"} {
		delete(m, k)
	}
	return json.Marshal(m)
}
