package importers

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"time"

	"surge/trace"
)

// Reshape adjusts a replay of imported sessions: which of them to keep,
// how fast to send them and how long they may be. The zero value keeps
// every session as it is.
type Reshape struct {
	// From and To select the sessions starting in [From, To) of the
	// source's offsets (To 0: to the end); kept sessions start at their
	// offset minus From, so the window starts the replay.
	From, To time.Duration
	// Scale multiplies the kept offsets (0: 1): 1/speed to replay faster,
	// or observed/target rate to hit a target rate (see Observed.Rate).
	// Every gap scales alike, so bursts keep their shape.
	Scale float64
	// Sample keeps this fraction of the sessions (0: all), chosen by a
	// hash of each session's client and index in the source, so the same
	// fraction keeps the same sessions and a smaller fraction keeps a
	// subset of what a larger one keeps.
	Sample float64
	// MaxContext caps each turn's input plus output tokens (0: no cap),
	// as capTurn says.
	MaxContext int
	// Limit keeps at most this many sessions, the first kept in start
	// order (0: no limit), and stops reading the source after them: a
	// quick look at the start of a long trace.
	Limit int
}

// Validate reports every setting out of range, the window, sample and
// context cap each an *OptionError naming the flag of surge import that
// sets it.
func (r Reshape) Validate() error { return r.validate(false) }

// validate is Validate, with a Sample of 0 out of range when set.
func (r Reshape) validate(set bool) error {
	var errs []error
	if r.From < 0 || r.To < 0 || (r.To > 0 && r.To <= r.From) {
		errs = append(errs, optionError("window", "--window %v to %v: want 0 ≤ from < to", r.From, r.To))
	}
	if r.Scale < 0 || math.IsInf(r.Scale, 0) || math.IsNaN(r.Scale) {
		errs = append(errs, fmt.Errorf("scale %g: want a positive factor", r.Scale))
	}
	if !(r.Sample >= 0 && r.Sample <= 1) || r.Sample == 0 && set {
		errs = append(errs, optionError("sample", "--sample %g: want a fraction in (0, 1]", r.Sample))
	}
	if r.MaxContext < 0 || r.MaxContext == 1 {
		errs = append(errs, optionError("max-context", "--max-context %d: want at least 2 tokens, one of input and one of output", r.MaxContext))
	}
	if r.Limit < 0 {
		errs = append(errs, optionError("limit", "--limit %d: want a number of sessions ≥ 1 (0: all)", r.Limit))
	}
	return errors.Join(errs...)
}

// keepsAll reports whether r keeps every session: no window or sample.
func (r Reshape) keepsAll() bool {
	return r.From == 0 && r.To == 0 && (r.Sample == 0 || r.Sample == 1)
}

// Reshaped is a Source of the sessions of another, reshaped: filtered,
// rescaled, capped and numbered afresh from 0 within each client. It is
// not safe for concurrent use.
type Reshaped struct {
	src    Source
	r      Reshape
	index  map[string]int // next index of each client
	capped int
	kept   int
}

// NewReshaped returns the sessions of src reshaped by r, which must be
// valid.
func NewReshaped(src Source, r Reshape) *Reshaped {
	if err := r.Validate(); err != nil {
		panic("importers: NewReshaped with an invalid Reshape: " + err.Error())
	}
	if r.Scale == 0 {
		r.Scale = 1
	}
	return &Reshaped{src: src, r: r, index: map[string]int{}}
}

// Next returns the next kept session, or io.EOF after the last; it stops
// reading its source at the first session past the window's end, since
// sources come in start order, and once Limit sessions were kept.
func (rs *Reshaped) Next() (*trace.Session, error) {
	for {
		if rs.Full() {
			return nil, io.EOF
		}
		s, err := rs.src.Next()
		if err != nil {
			return nil, err
		}
		if rs.r.To > 0 && s.At() >= rs.r.To {
			return nil, io.EOF
		}
		if rs.Apply(s) {
			return s, nil
		}
	}
}

// Apply reshapes s in place and reports whether it is kept, for callers
// handed sessions one at a time instead of a Source (NewReshaped's src
// may then be nil). Sessions must come in start order.
func (rs *Reshaped) Apply(s *trace.Session) bool {
	at := s.At()
	if rs.Full() || at < rs.r.From || (rs.r.To > 0 && at >= rs.r.To) || !sampled(s, rs.r.Sample) {
		return false
	}
	rs.kept++
	s.AtUS = int64(math.Round(float64(s.AtUS-rs.r.From.Microseconds()) * rs.r.Scale))
	s.Index = rs.index[s.Client]
	rs.index[s.Client]++
	if rs.r.MaxContext > 0 && capSession(s, rs.r.MaxContext) {
		rs.capped++
	}
	return true
}

// Full reports whether Limit sessions were kept, so that no more will be.
func (rs *Reshaped) Full() bool { return rs.r.Limit > 0 && rs.kept >= rs.r.Limit }

// Capped returns how many of the sessions returned had a turn capped.
func (rs *Reshaped) Capped() int { return rs.capped }

// sampled reports whether s is among a fraction f of sessions: whether
//
//	u = ⌊h / 2¹¹⌋ / 2⁵³ < f,   h = mix(FNV-1a(client), index),
//
// u being uniform on [0, 1) over sessions; f 0 keeps all.
func sampled(s *trace.Session, f float64) bool {
	if f == 0 || f >= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(s.Client))
	u := float64(splitmix(h.Sum64()^splitmix(uint64(s.Index)))>>11) / (1 << 53)
	return u < f
}

// splitmix is the SplitMix64 finaliser, a bijection of 64-bit words
// whose every output bit depends on every input bit.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// capSession caps every turn of s to n tokens and reports whether any
// turn changed.
func capSession(s *trace.Session, n int) bool {
	changed := false
	for k := range s.Turns {
		changed = capTurn(&s.Turns[k], n) || changed
	}
	return changed
}

// capTurn fits a turn of input i and output o into a context of n ≥ 2
// tokens, keeping the output when it fits and cutting the prompt's end:
//
//	o' = min(o, n − 1),   i' = min(i, n − o'),
//
// so i' + o' ≤ n with at least one token of each. A cut prompt keeps the
// blocks that still fit whole, and loses its tail block; max and min
// tokens and reasoning shrink to the new output. It reports whether the
// turn changed.
func capTurn(t *trace.Turn, n int) bool {
	if t.InputTokens+t.OutputTokens <= n {
		return false
	}
	out := min(t.OutputTokens, n-1)
	in := min(t.InputTokens, n-out)
	t.OutputTokens = out
	t.MaxTokens = min(t.MaxTokens, out)
	t.MinTokens = min(t.MinTokens, out)
	t.ReasoningTokens = min(t.ReasoningTokens, out)
	if in < t.InputTokens {
		t.InputTokens = in
		t.SystemTokens = min(t.SystemTokens, in)
		t.TailBlock = nil
		if t.BlockTokens > 0 {
			t.Blocks = t.Blocks[:min(len(t.Blocks), in/t.BlockTokens)]
		}
	}
	return true
}

// Observed is what a pass over a source saw: how many sessions, and the
// first and last start offsets.
type Observed struct {
	Sessions    int
	First, Last time.Duration
}

// Observe reads src to its end and returns what it saw.
func Observe(src Source) (Observed, error) {
	var o Observed
	for {
		s, err := src.Next()
		if err == io.EOF {
			return o, nil
		}
		if err != nil {
			return o, err
		}
		if o.Sessions == 0 {
			o.First = s.At()
		}
		o.Last = s.At()
		o.Sessions++
	}
}

// Rate is the mean arrival rate per second, the inverse of the mean gap
// between starts:
//
//	λ = (n − 1) / (last − first),
//
// or 0 with fewer than two sessions or all at one instant. Scaling every
// offset by λ/R gives mean rate R.
func (o Observed) Rate() float64 {
	span := (o.Last - o.First).Seconds()
	if o.Sessions < 2 || span <= 0 {
		return 0
	}
	return float64(o.Sessions-1) / span
}
