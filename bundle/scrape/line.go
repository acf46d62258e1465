package scrape

import (
	"fmt"
	"math"
	"strconv"
)

// Format and Version name the file format in the header line.
const (
	Format  = "surge-server-metrics"
	Version = 1
)

// Header is the first line of a server-metrics file: what was scraped,
// from when, and how often.
type Header struct {
	Format     string   `json:"format"`
	Version    int      `json:"version"`
	URL        string   `json:"url"`         // credentials removed
	Start      string   `json:"start"`       // RFC 3339 with nanoseconds; at_us counts from here
	IntervalUS int64    `json:"interval_us"` // the scrape period
	Keep       []string `json:"keep,omitempty"`
}

// Scrape is one line after the header: one GET of the metrics endpoint.
// AtUS is when the request was sent, in µs since Header.Start; TookUS is
// how long the answer took. A failed scrape has Error set and no samples.
type Scrape struct {
	AtUS    int64    `json:"at_us"`
	TookUS  int64    `json:"took_us"`
	Error   string   `json:"error,omitempty"`
	Samples []Sample `json:"samples,omitempty"`
}

// OK reports whether the scrape succeeded.
func (s Scrape) OK() bool { return s.Error == "" }

// Sample is one series of a kept metric family at one scrape: the family
// name as exposed (counters keep their _total suffix), its type in lower
// case ("counter", "gauge", "untyped", "histogram", "summary"), its labels,
// and exactly one of Value, Histogram or Summary.
type Sample struct {
	Name      string            `json:"name"`
	Type      string            `json:"type"`
	Labels    map[string]string `json:"labels,omitempty"`
	Value     *Float            `json:"value,omitempty"`
	Histogram *Histogram        `json:"histogram,omitempty"`
	Summary   *Summary          `json:"summary,omitempty"`
}

// Histogram is a cumulative histogram as exposed: LE[i] is a bucket's
// upper bound (the last is +Inf) and Cum[i] the number of observations
// ≤ LE[i], so Cum is non-decreasing; Sum and Count are the totals.
type Histogram struct {
	LE    []Float `json:"le"`
	Cum   []Float `json:"cum"`
	Sum   Float   `json:"sum"`
	Count Float   `json:"count"`
}

// Summary is a client-side summary: Q[i] is a quantile and V[i] its value.
type Summary struct {
	Q     []Float `json:"q,omitempty"`
	V     []Float `json:"v,omitempty"`
	Sum   Float   `json:"sum"`
	Count Float   `json:"count"`
}

// Float is a float64 whose JSON form is a number when finite and the
// string "NaN", "+Inf" or "-Inf" otherwise, since exposition values may
// be any of those and JSON numbers cannot.
type Float float64

// MarshalJSON writes f as a number or as a quoted NaN/±Inf.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number or a quoted NaN/+Inf/-Inf.
func (f *Float) UnmarshalJSON(b []byte) error {
	s := string(b)
	switch s {
	case `"NaN"`:
		*f = Float(math.NaN())
		return nil
	case `"+Inf"`, `"Inf"`:
		*f = Float(math.Inf(1))
		return nil
	case `"-Inf"`:
		*f = Float(math.Inf(-1))
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return fmt.Errorf("float %s: not a number or \"NaN\"/\"+Inf\"/\"-Inf\"", s)
	}
	*f = Float(v)
	return nil
}
