package arrival

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// maxMicros is the largest offset, in µs, that fits in a time.Duration.
const maxMicros = math.MaxInt64 / int64(time.Microsecond)

// initialCap caps the capacity Schedule reserves up front from the expected
// count, so a huge horizon cannot demand memory before arrivals exist.
const initialCap = 1 << 20

// Stream generates a stream's arrival offsets one at a time, in order, so
// several streams can be merged lazily. Offsets are whole microseconds and
// non-decreasing, and depend only on the Config and the random source. A
// Stream is not safe for concurrent use, and it draws from its *rand.Rand on
// every call to Next: give each Stream its own source.
type Stream struct {
	r     *rand.Rand
	law   law
	in    intensity
	tau   float64 // current unit-rate epoch τ
	piece int     // piece of the last arrival: the search hint
	begun bool    // whether the first (equilibrium) epoch was drawn
	done  bool
	taus  []float64 // with Config.Count: the remaining epochs, in order
	err   error
	grid  time.Duration // rounds offsets up to a multiple; 0 for none
}

// Stream returns a generator of c's arrivals drawn from r. If c is invalid
// the Stream yields nothing and Err reports why.
func (c Config) Stream(r *rand.Rand) *Stream {
	if err := c.Validate(); err != nil {
		return &Stream{done: true, err: err}
	}
	s := &Stream{r: r, law: newLaw(c), in: c.intensity(), grid: c.Grid}
	if c.Count > 0 {
		s.taus = s.counted(c.Count)
	}
	return s
}

// counted draws the epochs of a stream of exactly n arrivals over the
// curve's mass M: n + 1 spacings of the unit-rate process, the first from
// its equilibrium law, then gaps, scaled to sum to M, the arrivals at the
// first n partial sums. For Poisson gaps these are the order statistics
// of n uniform points, exactly the Poisson process given its count; for
// other laws the gaps keep their shape and CV within a factor
// M/Σ ≈ 1 ± CV/√n.
func (s *Stream) counted(n int) []float64 {
	taus := make([]float64, n)
	sum := s.law.first(s.r)
	for i := range taus {
		taus[i] = sum
		sum += s.law.gap(s.r)
	}
	scale := s.in.total / sum
	for i := range taus {
		taus[i] *= scale
	}
	return taus
}

// Next returns the next arrival offset, rounded to the nearest microsecond.
// It returns false, and keeps returning false, once the rate curve has no
// mass left (stages or a ramp ending at rate 0), once the offset would not
// fit in a time.Duration (about 292 years), or if the Config was invalid.
//
// The arrival is Λ⁻¹(τ) for the unit-rate epoch τ = Y + G₂ + … + Gᵢ, where
// Y is drawn from the equilibrium law of the gaps (see the package doc).
func (s *Stream) Next() (time.Duration, bool) {
	if s.done {
		return 0, false
	}
	switch {
	case s.taus != nil:
		if len(s.taus) == 0 {
			s.done = true
			return 0, false
		}
		s.tau, s.taus = s.taus[0], s.taus[1:]
	case s.begun:
		s.tau += s.law.gap(s.r)
	default:
		s.tau, s.begun = s.law.first(s.r), true
	}
	t, i, ok := s.in.invert(s.tau, s.piece)
	var off time.Duration
	if ok {
		off, ok = quantise(t)
	}
	if !ok {
		s.done = true
		return 0, false
	}
	s.piece = i
	if g := s.grid; g > 0 {
		off = (off + g - 1) / g * g
	}
	return off, true
}

// quantise rounds t seconds to the nearest whole microsecond (halves away
// from zero), reporting false when the result does not fit a time.Duration.
func quantise(t float64) (time.Duration, bool) {
	us := math.Round(t * 1e6)
	if !(us <= float64(maxMicros)) {
		return 0, false
	}
	return time.Duration(us) * time.Microsecond, true
}

// Err returns the validation error of the Stream's Config, if any.
func (s *Stream) Err() error {
	return s.err
}

// Schedule returns the first n arrival offsets of the stream, or all offsets
// before horizon, whichever ends first (n <= 0 or horizon <= 0 means no
// limit of that kind; at least one limit must be set). Offsets are
// non-decreasing whole microseconds and depend only on c and r; the first n
// offsets are the same whatever n and horizon are asked for. It returns
// fewer than n offsets when the curve runs out of mass first.
func (c Config) Schedule(r *rand.Rand, n int, horizon time.Duration) ([]time.Duration, error) {
	if n <= 0 && horizon <= 0 {
		return nil, errors.New("arrival schedule: needs a count or a horizon")
	}
	s := c.Stream(r)
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("arrival schedule: %w", err)
	}
	out := make([]time.Duration, 0, c.expectedCap(n, horizon))
	for n <= 0 || len(out) < n {
		t, ok := s.Next()
		if !ok || (horizon > 0 && t >= horizon) {
			break
		}
		out = append(out, t)
	}
	return out, nil
}

// expectedCap guesses the schedule length: n, or Λ(horizon) with a margin,
// capped at initialCap.
func (c Config) expectedCap(n int, horizon time.Duration) int {
	want := float64(initialCap)
	if horizon > 0 {
		m := c.Cumulative(horizon)
		want = min(want, m+4*math.Sqrt(m)+16)
	}
	if n > 0 {
		want = min(want, float64(n))
	}
	return int(want)
}
