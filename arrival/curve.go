package arrival

import (
	"math"
	"slices"
	"time"
)

// intensity is a compiled rate curve λ(t), t in seconds from the stream's
// start. The time axis is cut at every stage offset, the ramp's end and
// every spike edge, so on each piece [a, b)
//
//	λ(t) = s · (p + q·(t − a)) · (1 + A·cos(ω(t − φ)))
//
// with base rate p (1/s) and slope q (1/s²) at a, spike product s, diurnal
// amplitude A (0 without diurnal), ω = 2π/Period (rad/s), φ = PeakAt (s).
// Its integral over [a, a + x] is analytic (integrating by parts, θ(u) =
// ω(u − φ)):
//
//	∫ λ = s · [ p·x + q·x²/2
//	          + A·( (p + q·x)·sin θ(a+x) − p·sin θ(a) ) / ω
//	          + A·q·( cos θ(a+x) − cos θ(a) ) / ω² ]
//
// The last piece is unbounded, has q = 0 and s = 1.
type intensity struct {
	pieces []piece
	amp    float64 // diurnal amplitude A = (r − 1)/(r + 1); 0 without diurnal
	omega  float64 // ω = 2π/Period, rad/s
	phase  float64 // φ = PeakAt, s
	total  float64 // Λ(∞): the stream's whole mass, +Inf if unbounded
}

// piece is one stretch of the curve on which base rate and spikes are simple.
type piece struct {
	start, end float64 // [start, end) in seconds; end is +Inf for the last
	p, q       float64 // base rate at start (1/s) and its slope (1/s²)
	s          float64 // product of the active spike factors
	sin0, cos0 float64 // sin θ(start), cos θ(start)
	cum        float64 // Λ(start)
}

// RateAt returns λ(t), the rate in arrivals per second at offset t (0 for
// t < 0). It is right-continuous at steps and spike edges, and meaningful
// only for a Config that passes Validate.
func (c Config) RateAt(t time.Duration) float64 {
	if t < 0 {
		return 0
	}
	in := c.intensity()
	x := t.Seconds()
	return in.rate(in.find(x), x)
}

// Cumulative returns Λ(t) = ∫₀ᵗ λ(u) du, the expected number of arrivals
// in [0, t) (0 for t ≤ 0). It is meaningful only for a valid Config.
func (c Config) Cumulative(t time.Duration) float64 {
	if t <= 0 {
		return 0
	}
	in := c.intensity()
	x := t.Seconds()
	i := in.find(x)
	m, _ := in.eval(i, x-in.pieces[i].start)
	return in.pieces[i].cum + m
}

// Mass returns Λ(∞), the expected number of arrivals of the whole stream:
// +Inf unless the rate ends at 0 (stages or a ramp ending at 0 rate).
func (c Config) Mass() float64 {
	return c.intensity().total
}

// intensity compiles c's rate curve. c should be valid; an invalid one
// compiles to a curve of no particular meaning but does not panic.
func (c Config) intensity() intensity {
	in := intensity{}
	if d := c.Curve.Diurnal; d != nil && d.Period > 0 && d.PeakToTrough >= 1 {
		r := d.PeakToTrough
		in.amp = (r - 1) / (r + 1)
		in.omega = 2 * math.Pi / d.Period.Seconds()
		in.phase = d.PeakAt.Seconds()
	}
	if math.IsInf(in.amp, 0) || math.IsNaN(in.amp) {
		in.amp = 1 // r = +Inf: the trough touches 0
	}
	cuts := c.breakpoints()
	in.pieces = make([]piece, len(cuts))
	for i, a := range cuts {
		b := math.Inf(1)
		if i+1 < len(cuts) {
			b = cuts[i+1]
		}
		p, q := c.base(a)
		if math.IsInf(b, 1) {
			q = 0
		}
		pc := piece{start: a, end: b, p: p, q: q, s: c.spikeFactor(a)}
		pc.sin0, pc.cos0 = math.Sincos(in.omega * (a - in.phase))
		in.pieces[i] = pc
	}
	in.accumulate()
	return in
}

// accumulate fills each piece's Λ(start) and the total mass.
func (in *intensity) accumulate() {
	cum := 0.0
	for i := range in.pieces {
		pc := &in.pieces[i]
		pc.cum = cum
		if math.IsInf(pc.end, 1) {
			break
		}
		m, _ := in.eval(i, pc.end-pc.start)
		cum += max(m, 0)
	}
	last := in.pieces[len(in.pieces)-1]
	in.total = last.cum
	if last.p*last.s > 0 {
		in.total = math.Inf(1)
	}
}

// breakpoints returns the sorted distinct cut offsets in seconds, 0 first.
func (c Config) breakpoints() []float64 {
	cuts := []float64{0}
	for _, st := range c.Curve.Stages {
		cuts = append(cuts, st.At.Seconds())
	}
	if rp := c.Curve.Ramp; rp != nil && len(c.Curve.Stages) == 0 {
		cuts = append(cuts, rp.Over.Seconds())
	}
	for _, sp := range c.Curve.Spikes {
		cuts = append(cuts, sp.At.Seconds(), (sp.At + sp.For).Seconds())
	}
	cuts = slices.DeleteFunc(cuts, func(x float64) bool { return !(x >= 0) || math.IsInf(x, 1) })
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// base returns the base rate p at offset a (seconds, right limit) and its
// slope q until the next breakpoint: Stages if any, else Ramp, else Rate.
func (c Config) base(a float64) (p, q float64) {
	if st := c.Curve.Stages; len(st) > 0 {
		return stageBase(st, a)
	}
	if rp := c.Curve.Ramp; rp != nil {
		over := rp.Over.Seconds()
		if over <= 0 || a >= over {
			return rp.To, 0
		}
		q = (rp.To - rp.From) / over
		return rp.From + q*a, q
	}
	return c.Rate, 0
}

// stageBase interpolates the stages at a: the first stage's rate before it,
// linear between stage i (the last with Atᵢ ≤ a) and stage i+1, and the last
// stage's rate after it.
func stageBase(st []Stage, a float64) (p, q float64) {
	i := -1
	for j, s := range st {
		if s.At.Seconds() <= a {
			i = j
		}
	}
	switch {
	case i < 0:
		return st[0].Rate, 0
	case i == len(st)-1:
		return st[i].Rate, 0
	}
	a0, a1 := st[i].At.Seconds(), st[i+1].At.Seconds()
	if a1 <= a0 {
		return st[i+1].Rate, 0 // unsorted input; Validate reports it
	}
	q = (st[i+1].Rate - st[i].Rate) / (a1 - a0)
	return st[i].Rate + q*(a-a0), q
}

// spikeFactor returns the product of the factors of spikes active at a.
func (c Config) spikeFactor(a float64) float64 {
	s := 1.0
	for _, sp := range c.Curve.Spikes {
		if sp.At.Seconds() <= a && a < (sp.At+sp.For).Seconds() {
			s *= sp.Factor
		}
	}
	return s
}

// find returns the index of the piece holding x seconds (x ≥ 0).
func (in *intensity) find(x float64) int {
	i, found := slices.BinarySearchFunc(in.pieces, x, func(pc piece, x float64) int {
		if pc.start < x {
			return -1
		}
		if pc.start > x {
			return 1
		}
		return 0
	})
	if !found {
		i--
	}
	return max(i, 0)
}

// rate returns λ at x seconds, which lies in piece i.
func (in *intensity) rate(i int, x float64) float64 {
	pc := &in.pieces[i]
	b := max(pc.p+pc.q*(x-pc.start), 0)
	return pc.s * b * (1 + in.amp*math.Cos(in.omega*(x-in.phase)))
}

// eval returns the mass of piece i over [start, start + x] and λ at its end,
// by the closed form in the intensity comment.
func (in *intensity) eval(i int, x float64) (mass, rate float64) {
	pc := &in.pieces[i]
	b := max(pc.p+pc.q*x, 0)
	lin := pc.p*x + 0.5*pc.q*x*x
	if in.amp == 0 {
		return pc.s * lin, pc.s * b
	}
	w := in.omega
	sin1, cos1 := math.Sincos(w * (pc.start + x - in.phase))
	osc := ((pc.p+pc.q*x)*sin1-pc.p*pc.sin0)/w + pc.q*(cos1-pc.cos0)/(w*w)
	return pc.s * (lin + in.amp*osc), pc.s * b * (1 + in.amp*cos1)
}
