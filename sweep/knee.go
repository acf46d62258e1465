package sweep

// Kneedle returns the index of the knee of a convex, increasing curve
// (x[i], y[i]), such as p99 latency against achieved throughput, or -1 when
// the curve has none. It is the Kneedle method of Satopää, Albrecht, Irwin
// and Raghavan ("Finding a 'Kneedle' in a Haystack", ICDCS workshops 2011),
// without its smoothing step, for points given in order of increasing
// load:
//
//	xₙ = (x − min x)/(max x − min x),  yₙ = (y − min y)/(max y − min y)
//	d  = xₙ − yₙ                        (distance below the diagonal)
//
// A knee candidate is a local maximum of d; it is confirmed when a later
// point's d falls below the threshold
//
//	T = d(candidate) − s·mean gap of xₙ
//
// before d rises above the candidate's. The knee is the confirmed
// candidate with the largest d. s is the sensitivity (1 in the paper; 0
// means 1): larger values need a sharper bend.
//
// Assumptions: the points come in order of increasing offered load, so the
// order is kept even where achieved throughput falls past saturation; the
// curve bends upward once (latency grows faster than throughput past the
// knee); and it is sampled past the bend, because a candidate at the last
// point has no later point to confirm it. A straight line has d = 0 at
// every point and no knee. Fewer than three points have no knee.
func Kneedle(x, y []float64, s float64) int {
	n := len(x)
	if n < 3 || len(y) != n {
		return -1
	}
	if s <= 0 {
		s = 1
	}
	xn, okx := normalize(x)
	yn, oky := normalize(y)
	if !okx || !oky {
		return -1
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = xn[i] - yn[i]
	}
	gap := meanGap(xn)
	best := -1
	for i := 0; i < n-1; i++ {
		if !localMax(d, i) {
			continue
		}
		t := d[i] - s*gap
		if confirmed(d, i, t) && (best < 0 || d[i] > d[best]) {
			best = i
		}
	}
	return best
}

// localMax reports whether d[i] is a local maximum: no lower than its
// neighbours and above at least one of them (the first point compares
// with its right neighbour alone).
func localMax(d []float64, i int) bool {
	left := i == 0 || d[i] >= d[i-1]
	right := i == len(d)-1 || d[i] >= d[i+1]
	strict := (i > 0 && d[i] > d[i-1]) || (i < len(d)-1 && d[i] > d[i+1])
	return left && right && strict && d[i] > 0
}

// confirmed reports whether d falls below t after the candidate i before
// rising to another local maximum above d[i].
func confirmed(d []float64, i int, t float64) bool {
	for j := i + 1; j < len(d); j++ {
		if d[j] < t {
			return true
		}
		if d[j] > d[i] {
			return false
		}
	}
	return false
}

// normalize maps v linearly onto [0, 1]; it reports false when v is
// constant or not finite.
func normalize(v []float64) ([]float64, bool) {
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	if !(hi > lo) || hi-lo > 1e300 {
		return nil, false
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = (x - lo) / (hi - lo)
	}
	return out, true
}

// meanGap is the mean absolute step between successive values of v.
func meanGap(v []float64) float64 {
	var sum float64
	for i := 1; i < len(v); i++ {
		d := v[i] - v[i-1]
		if d < 0 {
			d = -d
		}
		sum += d
	}
	return sum / float64(len(v)-1)
}
