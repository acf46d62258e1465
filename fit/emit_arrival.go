package fit

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// writeArrivalComments writes the arrival statistics as comments.
func writeArrivalComments(b *bytes.Buffer, a ArrivalFit) {
	c := a.Curve
	fmt.Fprintf(b, "    # arrivals: n=%d from %s s to %s s of the trace's clock, mean rate %s/s, gap cv %.3g, %d tied timestamps (resolution %g s)\n",
		a.N, clock(c.First), clock(c.Last), num(c.Mean()), a.CV, a.Ties, a.Resolution)
	fmt.Fprintf(b, "    # gaps as recorded (positive, s): %s\n", fitsComment(a.Gaps))
	if c.Tried == 0 {
		b.WriteString("    # rate: flat (the span holds fewer than two bins of any width)\n")
	} else {
		verdict := "beats a flat rate"
		if c.Flat() {
			verdict = "does not beat a flat rate, so the rate is flat"
		}
		fmt.Fprintf(b, "    # rate: the best of %d bin widths, %d bins of %s s, %s: LR %.1f / dispersion %.3g - %d ln n = BIC gain %.1f\n",
			c.Tried, c.Bins, num(math.Max(c.Width, bestWidth(c))), verdict, c.LR, c.Dispersion, c.Bins-1, c.Score)
	}
	fmt.Fprintf(b, "    # gaps of the unit-rate process (the rate taken out), by BIC: %s\n", lawsComment(a.Laws))
	if g := a.Grid; g.Detected {
		fmt.Fprintf(b, "    # grid: timestamps on a %.4g s grid (%.0f%% zero gaps), %.3g requests per slot, dispersion %.3g; the gap fit above describes the grid, so the arrivals are stated on the grid\n",
			g.Period, 100*g.ZeroShare, g.PerSlot, g.Dispersion)
	}
	if o := a.OnOff; o.Detected {
		fmt.Fprintf(b, "    # on/off: %d of %d bins of %.0f s are empty (%.2g expected for Poisson), longest gap %.0f s\n",
			o.Empty, o.Bins, o.Bin, o.Expected, o.MaxGap)
	}
}

// bestWidth is the width the comment names for a flat curve: the bins'
// width of the best refused curve, recovered from its span and count.
func bestWidth(c CurveFit) float64 {
	for _, w := range CurveWidths {
		k0, k1 := math.Floor(c.First/w), math.Max(math.Ceil(c.Last/w)-1, math.Floor(c.First/w))
		if int(k1-k0+1) == c.Bins {
			return w
		}
	}
	return 0
}

// writeArrival writes the arrival block of an open-loop client: its
// process, and its rate as stages on the trace's clock, 0 outside its
// active span, with the trace's count of arrivals spread over them.
func writeArrival(b *bytes.Buffer, a ArrivalFit) {
	c, p := a.Curve, a.Process()
	mean := c.Mean()
	fmt.Fprintf(b, "    arrival:  # %s\n", p.Why)
	fmt.Fprintf(b, "      process: %s\n", p.Name)
	switch p.Name {
	case "poisson":
	case "onoff":
		fmt.Fprintf(b, "      burst: %s  # a burst lasts %.3g s and an idle period %.3g s on average, at the mean rate\n",
			num(p.Burst), p.Burst*(1-p.Idle)/mean, p.Burst*p.Idle/mean)
		fmt.Fprintf(b, "      idle: %s\n", num(p.Idle))
		fmt.Fprintf(b, "      cv: %s  # of the gaps within a burst\n", num(p.CV))
		writeOnOffShapes(b, p)
	default:
		fmt.Fprintf(b, "      cv: %s\n", num(p.CV))
	}
	if g := a.Grid; g.Detected && g.Period > 0 {
		// Arrivals on the trace's clock: whole slots, the count per slot
		// drawn by the process above.
		fmt.Fprintf(b, "      grid: %sms\n", num(math.Round(g.Period*1000)))
	}
	fmt.Fprintf(b, "      count: %d  # the trace's arrivals, spread over the stages by the process\n", c.N)
	fmt.Fprintf(b, "      # rate: %d steps on the trace's clock, 0 before %s s and after %s s\n", len(c.Steps), clock(c.First), clock(c.Last))
	b.WriteString("      stages:\n")
	if c.First > 0 {
		b.WriteString("        - {at: 0s, rate: 0/s}\n")
		fmt.Fprintf(b, "        - {at: %ss, rate: 0/s}\n", clock(c.First))
	}
	for _, s := range c.Steps {
		r := strconv.FormatFloat(round6(s.Rate), 'f', -1, 64)
		fmt.Fprintf(b, "        - {at: %ss, rate: %s/s}\n", clock(s.From), r)
		fmt.Fprintf(b, "        - {at: %ss, rate: %s/s}\n", clock(s.To), r)
	}
	fmt.Fprintf(b, "        - {at: %ss, rate: 0/s}\n", clock(c.Last))
}

// round6 rounds v to 6 significant digits.
func round6(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	e := math.Pow(10, 5-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*e) / e
}

// clock prints seconds to the millisecond, without an exponent.
func clock(t float64) string {
	return strconv.FormatFloat(math.Round(t*1000)/1000, 'f', -1, 64)
}

// writeOnOffShapes writes onoff's laws of its bursts' lengths, idle
// lengths and rates: the trace's tables, or else their CVs.
func writeOnOffShapes(b *bytes.Buffer, p Process) {
	if p.BurstLaw == nil {
		fmt.Fprintf(b, "      burst_cv: %s  # of the bursts' lengths (1: exponential)\n", num(p.BurstCV))
		fmt.Fprintf(b, "      idle_cv: %s  # of the idle periods' lengths\n", num(p.IdleCV))
		fmt.Fprintf(b, "      rate_cv: %s  # of the bursts' rates (0: one rate)\n", num(p.RateCV))
		return
	}
	b.WriteString("      # the trace's bursts, split where the counts per 1, 10, 100 and 1000 mean gaps vary most as the trace's:\n")
	b.WriteString("      # their lengths, idle lengths and rates as tables, each scaled by its mean\n")
	fmt.Fprintf(b, "      burst_law: %q\n", p.BurstLaw.String())
	fmt.Fprintf(b, "      idle_law: %q\n", p.IdleLaw.String())
	fmt.Fprintf(b, "      rate_law: %q\n", p.RateLaw.String())
}
