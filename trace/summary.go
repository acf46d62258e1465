package trace

import (
	"io"
	"math"
	"slices"
	"time"
)

// Summary describes what a trace contains.
type Summary struct {
	WorkloadHash string          `json:"workload_hash"`
	Header       Header          `json:"header"`
	All          StreamSummary   `json:"all"`
	Clients      []StreamSummary `json:"clients"`
	// Reuse is the prefix-cache reuse the trace implies, when the caller
	// computed it (Summarize does not).
	Reuse *Reuse `json:"prefix_reuse,omitempty"`
}

// Reuse is the prefix-cache reuse a trace implies: how many of its prompt
// tokens a server with an unbounded prefix cache would find cached.
type Reuse struct {
	BlockTokens int   `json:"block_tokens"`  // tokens per KV block
	Prompt      int64 `json:"prompt_tokens"` // prompt tokens of every turn
	Cached      int64 `json:"cached_tokens"` // of those, in full blocks an earlier prompt held
}

// Ratio is Cached/Prompt, 0 for no prompt tokens.
func (r Reuse) Ratio() float64 {
	if r.Prompt == 0 {
		return 0
	}
	return float64(r.Cached) / float64(r.Prompt)
}

// StreamSummary describes the sessions of one client, or of all of them.
type StreamSummary struct {
	Name     string  `json:"name"`
	Sessions int     `json:"sessions"`
	Requests int     `json:"requests"`
	Closed   bool    `json:"closed_loop,omitempty"`
	Span     float64 `json:"span_s"` // first to last start offset, in seconds
	// Rate is (n−1)/span: arrivals per second between the first and last
	// start, the unbiased rate estimate for a renewal stream.
	Rate float64 `json:"rate_per_s"`
	// CV is the coefficient of variation (sd/mean) of the gaps between
	// successive starts.
	CV           float64   `json:"interarrival_cv"`
	InputTokens  Quantiles `json:"input_tokens"`
	OutputTokens Quantiles `json:"output_tokens"`
	TotalInput   int64     `json:"total_input_tokens"`
	TotalOutput  int64     `json:"total_output_tokens"`

	at      []int64
	inputs  []float64
	outputs []float64
}

// Quantiles are the order statistics surge reports for lengths.
type Quantiles struct {
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	P1   float64 `json:"p1"`
	P10  float64 `json:"p10"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// Summarize reads every session of tr and summarises them.
func Summarize(tr *Reader) (*Summary, error) { return SummarizeFunc(tr, nil) }

// SummarizeFunc is Summarize, also handing each session to each (if not
// nil) as it is read.
func SummarizeFunc(tr *Reader, each func(*Session)) (*Summary, error) {
	sum := &Summary{Header: tr.Header, All: StreamSummary{Name: "all"}}
	index := map[string]int{}
	for _, c := range tr.Header.Clients {
		index[c.Name] = len(sum.Clients)
		sum.Clients = append(sum.Clients, StreamSummary{Name: c.Name, Closed: c.Concurrency > 0})
	}
	for {
		s, err := tr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if each != nil {
			each(s)
		}
		i, ok := index[s.Client]
		if !ok {
			i = len(sum.Clients)
			index[s.Client] = i
			sum.Clients = append(sum.Clients, StreamSummary{Name: s.Client})
		}
		c := &sum.Clients[i]
		c.add(s)
		if !c.Closed {
			sum.All.add(s)
		} else {
			sum.All.addLengths(s)
		}
	}
	sum.WorkloadHash = tr.Hash()
	sum.All.finish()
	for i := range sum.Clients {
		sum.Clients[i].finish()
	}
	return sum, nil
}

func (st *StreamSummary) add(s *Session) {
	st.at = append(st.at, s.AtUS)
	st.addLengths(s)
}

func (st *StreamSummary) addLengths(s *Session) {
	st.Sessions++
	for _, t := range s.Turns {
		st.Requests++
		st.inputs = append(st.inputs, float64(t.InputTokens))
		st.outputs = append(st.outputs, float64(t.OutputTokens))
		st.TotalInput += int64(t.InputTokens)
		st.TotalOutput += int64(t.OutputTokens)
	}
}

func (st *StreamSummary) finish() {
	st.InputTokens = quantiles(st.inputs)
	st.OutputTokens = quantiles(st.outputs)
	if st.Closed || len(st.at) < 2 {
		return
	}
	slices.Sort(st.at)
	span := time.Duration(st.at[len(st.at)-1]-st.at[0]) * time.Microsecond
	st.Span = span.Seconds()
	if st.Span > 0 {
		st.Rate = float64(len(st.at)-1) / st.Span
	}
	st.CV = gapCV(st.at)
}

// gapCV returns sd/mean of the gaps between successive offsets.
func gapCV(at []int64) float64 {
	n := float64(len(at) - 1)
	var sum, sq float64
	for i := 1; i < len(at); i++ {
		g := float64(at[i] - at[i-1])
		sum += g
		sq += g * g
	}
	mean := sum / n
	if mean == 0 {
		return 0
	}
	variance := sq/n - mean*mean
	return math.Sqrt(max(variance, 0)) / mean
}

// quantiles sorts xs and returns its order statistics, using the
// nearest-rank definition: the p-quantile is the smallest value with at
// least p·n values at or below it.
func quantiles(xs []float64) Quantiles {
	if len(xs) == 0 {
		return Quantiles{}
	}
	slices.Sort(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	q := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(xs)))) - 1
		return xs[min(max(i, 0), len(xs)-1)]
	}
	return Quantiles{
		Mean: sum / float64(len(xs)), Min: xs[0], Max: xs[len(xs)-1],
		P1: q(0.01), P10: q(0.10), P50: q(0.50), P90: q(0.90), P99: q(0.99),
	}
}

// Histogram counts xs (already summarised as q) into n log-spaced bins
// between q.Min and q.Max, returning the bin edges (n+1) and counts (n).
func (st *StreamSummary) Histogram(input bool, n int) (edges []float64, counts []int) {
	xs, q := st.outputs, st.OutputTokens
	if input {
		xs, q = st.inputs, st.InputTokens
	}
	if len(xs) == 0 || n <= 0 {
		return nil, nil
	}
	lo, hi := math.Log(max(q.Min, 1)), math.Log(max(q.Max, 1))
	if hi <= lo {
		return []float64{q.Min, q.Max}, []int{len(xs)}
	}
	edges = make([]float64, n+1)
	for i := range edges {
		edges[i] = math.Exp(lo + (hi-lo)*float64(i)/float64(n))
	}
	counts = make([]int, n)
	for _, x := range xs {
		b := int(float64(n) * (math.Log(max(x, 1)) - lo) / (hi - lo))
		counts[min(max(b, 0), n-1)]++
	}
	return edges, counts
}
