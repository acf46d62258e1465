package sweep

import (
	"surge/metrics"
	"surge/trace"
)

// Mode is what a sweep varies from point to point.
type Mode string

// Modes of a sweep.
const (
	// Rate sweeps open-loop arrival rates (requests per second): each
	// client's rate is scaled so that the total is the point's load.
	Rate Mode = "rate"
	// Concurrency sweeps closed-loop concurrency: the point's load is the
	// number of requests kept in flight.
	Concurrency Mode = "concurrency"
)

// Result is the outcome of a sweep: one point per load, in increasing
// order of load, with the knees of the throughput–latency curve, the SLO
// search and the recommended operating point.
type Result struct {
	Spec     string      `json:"spec"`      // path of the workload spec
	SpecHash string      `json:"spec_hash"` // sha256 of the canonical spec swept, overrides applied
	Target   string      `json:"target"`    // URL, "built-in engine" or "sim: model on gpu"
	Mode     Mode        `json:"mode"`
	SLO      []trace.SLO `json:"slo,omitempty"`
	// Saturation is the throughput (successful requests per second)
	// measured closed loop at high concurrency before an automatic
	// sweep placed its points; 0 when not measured.
	Saturation float64 `json:"saturation_rps,omitempty"`
	Points     []Point `json:"points"`
	// KneeTTFT and KneeE2E are the knees of p99 TTFT and p99 E2E against
	// achieved throughput; nil when the curve has none (see Knee).
	KneeTTFT *Knee `json:"knee_ttft,omitempty"`
	KneeE2E  *Knee `json:"knee_e2e,omitempty"`
	// MaxPassing is the index in Points of the highest load whose run
	// passed every SLO without saturating, or -1 (also when there is no
	// SLO).
	MaxPassing int `json:"max_passing"`
	// Search is the outcome of the SLO search; nil without SLOs.
	Search *Search `json:"search,omitempty"`
	// Operating is the recommended operating point; nil when no point
	// qualifies.
	Operating *Operating `json:"operating,omitempty"`
}

// Search is the outcome of the SLO search: the highest load that passed
// every SLO, and what a load CheckFactor higher did.
type Search struct {
	// MaxLoad is the highest load that passed (0: none did). Bracket is
	// the lowest load above it that did not pass (0: every load passed).
	MaxLoad float64 `json:"max_load"`
	Bracket float64 `json:"bracket,omitempty"`
	// CheckLoad is MaxLoad × CheckFactor, and CheckPass whether its run
	// passed; a pass there, above a load that failed, means the boundary
	// lies within run-to-run noise. CheckLoad is 0 when no load failed
	// (the search climbed as far as it goes and every load passed).
	CheckLoad float64 `json:"check_load,omitempty"`
	CheckPass bool    `json:"check_pass,omitempty"`
	Runs      int     `json:"runs"` // points the search added
	Note      string  `json:"note"` // the verdict in a sentence
}

// Point is the outcome of the run at one load.
type Point struct {
	// Load is the load asked for: the offered rate in requests per
	// second, or the concurrency.
	Load float64 `json:"load"`
	// SendRate is the rate the open-loop clients' requests were actually
	// sent at, (n−1)/span of their send times (metrics'
	// Throughput.SendRatePerS): a finite run of a random schedule sends
	// at a rate near its Load, not at it. MeanInFlight is the
	// time-weighted mean of requests in flight over the window, what a
	// concurrency point achieved.
	SendRate     float64 `json:"send_rate_per_s"`
	MeanInFlight float64 `json:"mean_in_flight"`
	// Throughput is successful measured requests per second over the
	// run's throughput window, OutputTokS their output tokens per second:
	// the figures of the point's own report (metrics.ThroughputWindow).
	Throughput float64 `json:"throughput_rps"`
	OutputTokS float64 `json:"output_tok_s"`
	// Measured is how many of the point's requests its figures count
	// (metrics' Scope.Requests): none when every one fell in the warmup,
	// and then the point has no figures at all, not figures of zero.
	Measured int `json:"measured"`
	// TTFT, TPOT and E2E are p50 and p99 in µs (TTFT and E2E from the
	// intended send time, so queueing counts).
	TTFT Quantiles `json:"ttft_us"`
	TPOT Quantiles `json:"tpot_us"`
	E2E  Quantiles `json:"e2e_us"`
	// Saturated is true when the server did not sustain the point's rate:
	// its TTFT grew without bound (see Overloaded; the run was then
	// stopped early) or it completed markedly fewer requests than were
	// sent (see Steady.Unsustained). Stopped says why. A saturated point
	// does not pass its SLOs, whatever its latencies.
	Saturated bool   `json:"saturated"`
	Stopped   string `json:"stopped,omitempty"`
	// Interrupted is true for the point the sweep was interrupted in
	// (Ctrl-C): its figures cover what it ran, it is left out of the
	// knees and it does not pass.
	Interrupted bool `json:"interrupted,omitempty"`
	// Verdict is the point's verdict in a word and Reason what it rests
	// on (see Decide); every report of the sweep shows these.
	Verdict Word   `json:"verdict,omitempty"`
	Reason  string `json:"verdict_reason,omitempty"`
	// SLO is the verdict on each SLO of the point's run; nil without SLOs.
	SLO *Verdict `json:"slo,omitempty"`
	// Measurement is the verdict on the point's measurement itself, as
	// its own report gives it (metrics.Measurement).
	Measurement *metrics.Measurement `json:"measurement,omitempty"`
	// SpecDecode is the server's speculative decoding during the point,
	// from its metrics, when it reported any.
	SpecDecode *metrics.SpecDecode `json:"spec_decode,omitempty"`
	// Dir is where the point's records are, relative to the sweep's
	// output directory.
	Dir     string           `json:"dir"`
	Summary *metrics.Summary `json:"-"`
}

// Quantiles are the median and 99th percentile of a latency, in µs.
type Quantiles struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
}

// Knee is the point of a throughput–latency curve past which latency
// rises much faster than throughput.
type Knee struct {
	Metric     string  `json:"metric"` // "ttft.p99" or "e2e.p99"
	Index      int     `json:"index"`  // into Result.Points
	Throughput float64 `json:"throughput_rps"`
	LatencyUS  float64 `json:"latency_us"`
}

// Operating is a recommended operating point: a load below the highest
// one that passed (or below the knee, without SLOs) by the stated
// headroom.
type Operating struct {
	Load       float64 `json:"load"`
	Throughput float64 `json:"throughput_rps"` // expected, interpolated
	Headroom   float64 `json:"headroom"`       // fraction below Basis: 0.2
	Basis      string  `json:"basis"`          // what the headroom is taken from
}
