package fit

import (
	"maps"
	"math"
	"math/rand/v2"

	"surge/arrival"
	"surge/dist"
)

// minShapeBursts is the fewest complete bursts whose lengths, idle
// lengths and rates an on/off fit states as tables (burst_law, idle_law,
// rate_law) rather than as CVs.
const minShapeBursts = 30

// The simulation shapeOnOff scores each split by: its arrivals (at most
// splitArrivals, so a long trace costs no more than a short one) over
// splitSeeds seeds.
const (
	splitArrivals = 200_000
	splitSeeds    = 3
)

// splitWidths are the windows, in mean gaps, over which shapeOnOff
// compares counts: a window holds one arrival on average, ten, a hundred
// and a thousand. A width is used when the trace has at least minWindows
// of it.
var splitWidths = []float64{1, 10, 100, 1000}

const minWindows = 20

// shaped is an on/off process split at a threshold, with its bursts'
// laws.
type shaped struct {
	theta              float64
	burst, idle, cv    float64
	burstL, idleL, rtL dist.Dist
	score              float64
}

// ShapeOnOff returns the on/off fit f of the unit-rate gaps (in their
// order) with its bursts' lengths, idle lengths and rates as tables
// (Fit.Shapes), split as shapeOnOff chooses, and the process's burst,
// idle and cv at that split (and the split, Params "split"); f unchanged
// when no split has minShapeBursts bursts. The gap law, its likelihood
// and its CDF stay those of f's threshold.
func ShapeOnOff(gaps []float64, f Fit) Fit {
	xs, _ := positive(gaps)
	s, ok := shapeOnOff(gaps, xs)
	if !ok {
		return f
	}
	f.Params = maps.Clone(f.Params)
	f.Params["burst"], f.Params["idle"], f.Params["cv"], f.Params["split"] = s.burst, s.idle, s.cv, s.theta
	f.Shapes = map[string]dist.Dist{"burst": s.burstL, "idle": s.idleL, "rate": s.rtL}
	return f
}

// shapeOnOff chooses, among the thresholds FitOnOff tries, the split of
// the unit-rate gaps (in their order) into bursts and idle periods whose
// process, with its bursts' lengths, idle lengths and rates as
// empirical tables of the trace's own, makes counts that vary as the
// trace's do: the lowest sum over splitWidths of the squared log ratio of
// the CVs of the counts per window, simulated against the trace's. The
// likelihood of the gaps alone cannot choose it: it sees each gap, not
// how gaps follow one another, and a burst often holds denser spells
// that the shorter bursts of a lower threshold tell apart. ok is false
// when no split has minShapeBursts complete bursts.
func shapeOnOff(gaps, sorted []float64) (shaped, bool) {
	want := countCVs(cumulate(gaps))
	best := shaped{score: math.Inf(1)}
	for _, p := range onOffQuantiles {
		theta := Quantile(sorted, p)
		f, ok := onOffAt(sorted, theta)
		if !ok {
			continue
		}
		s, ok := shapeAt(gaps, theta, f.Params)
		if !ok {
			continue
		}
		if s.score = splitScore(s, want, len(gaps)); s.score < best.score {
			best = s
		}
	}
	return best, !math.IsInf(best.score, 1)
}

// shapeAt builds the process split at theta with the tables of its
// bursts, ok false when it has fewer than minShapeBursts of them or a
// spec could not state it.
func shapeAt(gaps []float64, theta float64, p dist.Params) (shaped, bool) {
	b := splitBursts(gaps, theta)
	if len(b.spans) < minShapeBursts || len(b.rates) < minShapeBursts {
		return shaped{}, false
	}
	s := shaped{theta: theta, burst: round3(p["burst"]), idle: round3(p["idle"]), cv: round3(p["cv"])}
	var err error
	if s.burstL, err = QuantileTable(b.spans); err != nil {
		return shaped{}, false
	}
	if s.idleL, err = QuantileTable(b.idles); err != nil {
		return shaped{}, false
	}
	if s.rtL, err = QuantileTable(b.rates); err != nil {
		return shaped{}, false
	}
	return s, s.config().Validate() == nil
}

// config is the unit-rate arrival process s states.
func (s shaped) config() arrival.Config {
	return arrival.Config{Process: arrival.OnOff, Rate: 1, Burst: s.burst, Idle: s.idle, CV: s.cv,
		BurstLaw: s.burstL, IdleLaw: s.idleL, RateLaw: s.rtL}
}

// splitScore simulates s for as many arrivals as the trace has (at most
// splitArrivals) over splitSeeds seeds and sums, over the widths want
// holds, the squared log ratio of the mean simulated CV of counts to the
// trace's.
func splitScore(s shaped, want []float64, n int) float64 {
	n = min(n, splitArrivals)
	got := make([]float64, len(want))
	for seed := range uint64(splitSeeds) {
		st := s.config().Stream(rand.New(rand.NewPCG(seed+1, 0x5eed)))
		times := make([]float64, 0, n)
		for len(times) < n {
			t, ok := st.Next()
			if !ok {
				break
			}
			times = append(times, t.Seconds())
		}
		for i, cv := range countCVs(times) {
			if i < len(got) {
				got[i] += cv / splitSeeds
			}
		}
	}
	score := 0.0
	for i, w := range want {
		if r := got[i] / w; r > 0 && w > 0 {
			score += math.Log(r) * math.Log(r)
		} else {
			score += 100 // a width the simulation does not fill
		}
	}
	return score
}

// cumulate returns the epochs of gaps, from 0.
func cumulate(gaps []float64) []float64 {
	times := make([]float64, len(gaps)+1)
	for i, g := range gaps {
		times[i+1] = times[i] + g
	}
	return times
}

// countCVs returns the CV of the counts of the sorted times in windows of
// each of splitWidths mean gaps, from the first time, the last (partial)
// window left out, while there are at least minWindows of them.
func countCVs(times []float64) []float64 {
	if len(times) < 2 {
		return nil
	}
	span := times[len(times)-1] - times[0]
	mean := span / float64(len(times)-1)
	var cvs []float64
	for _, w := range splitWidths {
		width := w * mean
		k := int(span / width)
		if k < minWindows {
			break
		}
		counts := make([]float64, k)
		for _, t := range times {
			if i := int((t - times[0]) / width); i < k {
				counts[i]++
			}
		}
		_, cv := meanCV(counts)
		cvs = append(cvs, cv)
	}
	return cvs
}
