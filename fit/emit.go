package fit

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"surge/dist"
)

// Client is one client of an emitted spec: the fits of one slice of a trace
// (a whole trace, or one client, model or log type of it; see Groups).
type Client struct {
	// Name is the client name; it is lower-cased and every character a spec
	// does not allow in a name becomes '-'. Empty means "fitted".
	Name string
	// Model is the model the client requests; empty means "default".
	Model string
	// Arrivals and Lengths are the fits.
	Arrivals ArrivalFit
	Lengths  LengthFit
	// Flat states the mean rate instead of the rate curve as stages.
	Flat bool
	// Concurrency, when positive, makes the client closed loop, this many
	// sessions in flight, as the trace's was: it has no arrivals.
	Concurrency int
	// Sessions is the number of sessions the client had.
	Sessions int
	// Episodes is the fit of sessions of several turns, stated as agent
	// episodes; nil when every session is one request.
	Episodes *EpisodeFit

	weight int // the client's weight in the spec; 0 for none
}

// MinCorrelation is the smallest |Spearman| correlation of input and
// output lengths the spec states; weaker dependence is left out (drawn
// independently), as production traces show it (|ρ| ≤ 0.12).
const MinCorrelation = 0.05

// Spec writes a version-1 YAML spec named name with one client per Client,
// commented with the fit statistics: sample sizes, KS distances and grades
// of the chosen and rival laws, gap CV, grid and on/off findings, and the
// input–output correlation, which it states (correlation) from
// MinCorrelation up. Its duration is the longest client span, rounded up to a
// whole second. Each client states its rate curve as arrival stages (or its
// mean rate, with Flat), the process chosen by ArrivalFit.Process, and input
// and output as the chosen law clamped to the observed range (at least 1
// token), or as the empirical quantile table when the best law is poor.
func Spec(name string, clients []Client) ([]byte, error) {
	if len(clients) == 0 {
		return nil, errors.New("writing a spec: no clients")
	}
	var b bytes.Buffer
	span, sessions, open, closed := 0.0, 0, false, false
	for _, c := range clients {
		span = math.Max(span, c.Arrivals.Span)
		sessions += c.Sessions
		open, closed = open || c.Concurrency == 0, closed || c.Concurrency > 0
	}
	fmt.Fprintf(&b, "# Fitted by surge fit from %d client(s); statistics in the comments.\n", len(clients))
	b.WriteString("# KS D is the Kolmogorov-Smirnov distance to the data; grades: good <= max(1.358/sqrt(n), 0.03), fair <= 0.10, else poor.\n")
	b.WriteString("version: 1\n")
	fmt.Fprintf(&b, "name: %s\n", strconv.Quote(name))
	if open {
		fmt.Fprintf(&b, "duration: %ds\n", int(math.Ceil(math.Max(span, 1))))
	}
	if closed {
		// The sessions of the trace, split by weight as they were.
		fmt.Fprintf(&b, "requests: %d\n", max(sessions, 1))
	}
	b.WriteString("clients:\n")
	for i, c := range clients {
		if closed {
			c.weight = max(c.Sessions, 1)
		}
		if err := writeClient(&b, c); err != nil {
			return nil, fmt.Errorf("writing client %d (%s): %w", i, c.Name, err)
		}
	}
	return b.Bytes(), nil
}

// writeClient writes one client entry.
func writeClient(b *bytes.Buffer, c Client) error {
	a := c.Arrivals
	fmt.Fprintf(b, "  - name: %s\n", clientName(c.Name))
	model := c.Model
	if model == "" {
		model = "default"
	}
	fmt.Fprintf(b, "    model: %s\n", strconv.Quote(model))
	if c.weight > 0 {
		fmt.Fprintf(b, "    weight: %d  # its sessions in the trace\n", c.weight)
	}
	if c.Concurrency > 0 {
		return writeClosed(b, c)
	}
	writeArrivalComments(b, a)
	p := a.Process()
	if c.Flat || len(a.Curve) == 0 {
		fmt.Fprintf(b, "    rate: %s/s\n", num(a.Rate))
	}
	fmt.Fprintf(b, "    arrival:  # %s\n", p.Why)
	fmt.Fprintf(b, "      process: %s\n", p.Name)
	if p.Name != "poisson" {
		fmt.Fprintf(b, "      cv: %s\n", num(p.CV))
	}
	if g := a.Grid; g.Detected && g.Period > 0 {
		// Arrivals on the trace's clock: whole slots, the count per slot
		// drawn by the process above.
		fmt.Fprintf(b, "      grid: %sms\n", num(math.Round(g.Period*1000)))
	}
	if !c.Flat && len(a.Curve) > 0 {
		fmt.Fprintf(b, "      # rate curve: %d stages, one per bin, smoothed (mean rate %s/s)\n", len(a.Curve), num(a.Rate))
		b.WriteString("      stages:\n")
		for _, s := range a.Curve {
			fmt.Fprintf(b, "        - {at: %ss, rate: %s/s}\n", num(s.At), num(s.Rate))
		}
	}
	return writeLengths(b, c.Lengths)
}

// writeLengths writes a client's input and output laws and their
// dependence.
func writeLengths(b *bytes.Buffer, l LengthFit) error {
	for _, side := range []struct {
		key string
		len Length
	}{{"input", l.Input}, {"output", l.Output}} {
		if err := writeLength(b, "    ", side.key, side.len, 1); err != nil {
			return err
		}
	}
	fmt.Fprintf(b, "    # input-output dependence: Spearman %.3f, Pearson %.3f\n", l.Spearman, l.Pearson)
	if math.Abs(l.Spearman) >= MinCorrelation {
		// Kept by a Gaussian copula over the two laws above.
		fmt.Fprintf(b, "    correlation: %.3f\n", l.Spearman)
	}
	return nil
}

// writeArrivalComments writes the arrival statistics as comments.
func writeArrivalComments(b *bytes.Buffer, a ArrivalFit) {
	fmt.Fprintf(b, "    # arrivals: n=%d over %.0f s, mean rate %s/s, gap cv %.3g, %d tied timestamps\n",
		a.N, a.Span, num(a.Rate), a.CV, a.Ties)
	fmt.Fprintf(b, "    # gaps (positive, s): %s\n", fitsComment(a.Gaps))
	if g := a.Grid; g.Detected {
		fmt.Fprintf(b, "    # grid: timestamps on a %.4g s grid (%.0f%% zero gaps), %.3g requests per slot, dispersion %.3g; the gap fit above describes the grid, so the arrivals are stated on the grid\n",
			g.Period, 100*g.ZeroShare, g.PerSlot, g.Dispersion)
	}
	if o := a.OnOff; o.Detected {
		fmt.Fprintf(b, "    # on/off: %d of %d bins of %.0f s are empty (%.2g expected for Poisson), longest gap %.0f s; the smoothed curve blurs the idle periods\n",
			o.Empty, o.Bins, o.Bin, o.Expected, o.MaxGap)
	}
}

// writeLength writes one key, indented, of the law of l with its
// comments: the chosen law clamped to the observed range (at least
// floor), or the empirical quantile table.
func writeLength(b *bytes.Buffer, indent, key string, l Length, floor float64) error {
	fmt.Fprintf(b, "%s# %s: n=%d, mean %s, range [%g, %g]; %s\n", indent, key, l.Best.N+l.Best.Dropped, num(l.Mean), l.Min, l.Max, fitsComment(l.Choice))
	d := l.Use
	if d != l.Empirical {
		var err error
		if d, err = dist.Clamp(d, math.Max(floor, l.Min), math.Max(floor, l.Max)); err != nil {
			return fmt.Errorf("clamping %s: %w", key, err)
		}
	} else {
		fmt.Fprintf(b, "%s# %s: the best single law is not good, so the empirical quantile table is used\n", indent, key)
	}
	fmt.Fprintf(b, "%s%s: %s\n", indent, key, strconv.Quote(d.String()))
	return nil
}

// fitsComment summarises a Choice: the best law with its grade, then the
// KS distance of every rival.
func fitsComment(c Choice) string {
	if len(c.Fits) == 0 {
		return "too few distinct values to fit a law"
	}
	var s strings.Builder
	label := ""
	if c.Best.Family == FamilyGammaMoments {
		label = "moment-matched "
	}
	fmt.Fprintf(&s, "best %s%s KS D %.4f (%s)", label, c.Best.Dist, c.Best.KS, c.Grade)
	if c.Best.Dropped > 0 {
		fmt.Fprintf(&s, ", %d non-positive left out", c.Best.Dropped)
	}
	for _, f := range c.Fits[1:] {
		fmt.Fprintf(&s, "; %s %.4f", f.Family, f.KS)
	}
	return s.String()
}

// clientName maps s to a valid client name: lower-case letters, digits, '_',
// '.' and '-'.
func clientName(s string) string {
	if s == "" {
		return "fitted"
	}
	return strings.Map(func(r rune) rune {
		r = unicode.ToLower(r)
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '_' || r == '.' || r == '-' {
			return r
		}
		return '-'
	}, s)
}

// num prints v rounded to 4 significant digits, without an exponent.
func num(v float64) string {
	return strconv.FormatFloat(round4(v), 'f', -1, 64)
}
