package arrival

import (
	"math"
	"sort"
	"time"
)

// maxIter bounds the safeguarded Newton iterations of one inversion. Each
// iteration at least halves the bracket when Newton misbehaves, so 200
// iterations exhaust float64 precision on any bracket.
const maxIter = 200

// InverseCumulative returns Λ⁻¹(m) = inf{t ≥ 0 : Λ(t) ≥ m}, the earliest
// offset by which m arrivals are expected, rounded to the nanosecond. The
// infimum puts an m that falls on a flat zero-rate stretch at its start. It
// reports false when m exceeds the stream's whole mass (see Mass) or the
// offset does not fit in a time.Duration. It is meaningful only for a valid
// Config.
func (c Config) InverseCumulative(m float64) (time.Duration, bool) {
	in := c.intensity()
	t, _, ok := in.invert(m, 0)
	if !ok || t*1e9 >= math.MaxInt64 {
		return 0, false
	}
	return time.Duration(math.Round(t * 1e9)), true
}

// invert returns Λ⁻¹(y) in seconds and the index of the piece holding it,
// searching from piece hint on (callers with increasing y pass the previous
// index). ok is false when y > Λ(∞).
func (in *intensity) invert(y float64, hint int) (t float64, i int, ok bool) {
	if !(y <= in.total) {
		return 0, hint, false
	}
	if y <= 0 {
		return 0, 0, true
	}
	i = in.locate(y, hint)
	pc := &in.pieces[i]
	x := in.solve(i, y-pc.cum)
	return min(pc.start+x, pc.end), i, true
}

// locate returns the first piece i ≥ hint whose end mass Λ(endᵢ) reaches y,
// i.e. the piece holding inf{t : Λ(t) ≥ y}; zero-mass pieces are passed over
// unless y sits exactly at their start.
func (in *intensity) locate(y float64, hint int) int {
	n := len(in.pieces)
	hint = min(max(hint, 0), n-1)
	if hint+1 == n || in.pieces[hint+1].cum >= y {
		if in.pieces[hint].cum < y || hint == 0 {
			return hint
		}
		hint = 0 // y went backwards: search everything
	}
	// Smallest j in (hint, n) with pieces[j].cum ≥ y; the answer is j − 1.
	j := hint + 1 + sort.Search(n-hint-1, func(k int) bool { return in.pieces[hint+1+k].cum >= y })
	return j - 1
}

// solve returns x in [0, end − start] with mass(piece i, x) = m, for
// 0 ≤ m ≤ the piece's mass. Without diurnal the mass is quadratic in x and
// solved in closed form; with it, by Newton's method safeguarded by
// bisection on a bracket, starting from the diurnal-free solution.
func (in *intensity) solve(i int, m float64) float64 {
	pc := &in.pieces[i]
	if m <= 0 {
		return 0
	}
	x0 := quadratic(pc.p, pc.q, m/pc.s)
	if in.amp == 0 {
		return min(x0, pc.end-pc.start)
	}
	lo, hi := 0.0, pc.end-pc.start
	if math.IsInf(hi, 1) {
		// Last piece: q = 0, so λ ≥ s·p·(1 − A) > 0 bounds x from above.
		hi = m / (pc.s * pc.p * (1 - in.amp))
		if math.IsInf(hi, 1) || math.IsNaN(hi) {
			hi = in.expand(i, m, max(x0, 1))
		}
	}
	return in.newton(i, m, lo, hi, min(max(x0, lo), hi))
}

// expand doubles x until the mass of piece i over [start, start + x]
// reaches m; used only when the diurnal trough touches zero.
func (in *intensity) expand(i int, m, x float64) float64 {
	for range 2000 {
		if got, _ := in.eval(i, x); got >= m {
			return x
		}
		x *= 2
	}
	return x
}

// newton finds the root of f(x) = mass(i, x) − m, f' = λ ≥ 0, in [lo, hi]
// from x: each Newton step that leaves the bracket, or meets a zero rate,
// is replaced by bisection, and the bracket shrinks at every step.
func (in *intensity) newton(i int, m, lo, hi, x float64) float64 {
	start := in.pieces[i].start
	for range maxIter {
		f, r := in.eval(i, x)
		f -= m
		switch {
		case f > 0:
			hi = x
		case f < 0:
			lo = x
		default:
			return x
		}
		tol := 1e-11 + 4e-16*(start+x)
		if hi-lo <= tol {
			break
		}
		next := (lo + hi) / 2
		if r > 0 {
			if nx := x - f/r; nx > lo && nx < hi {
				next = nx
			}
		}
		if math.Abs(next-x) <= tol {
			return next
		}
		x = next
	}
	return x
}

// quadratic returns x ≥ 0 with p·x + q·x²/2 = m (p, m ≥ 0), in the form
// x = 2m / (p + √(p² + 2qm)) that avoids cancellation; for q < 0 the
// discriminant is clamped at 0 (x = p/|q|, where the rate reaches 0).
func quadratic(p, q, m float64) float64 {
	if q == 0 {
		return m / p
	}
	den := p + math.Sqrt(max(p*p+2*q*m, 0))
	if den <= 0 {
		return 0
	}
	return 2 * m / den
}
