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
	// Concurrency, when positive, makes the client closed loop, this many
	// sessions in flight, as the trace's was: it has no arrivals.
	Concurrency int
	// Sessions is the number of sessions the client had.
	Sessions int
	// Episodes is the fit of sessions of several turns, stated as agent
	// episodes; nil when every session is one request.
	Episodes *EpisodeFit
	// Prefix is the sharing of the sessions' first prompts, stated as a
	// pool of system prompts; nil when they share less than MinReuse.
	Prefix *PrefixFit
	// Of names the trace's client this one is part of, when Clients split
	// it (its prompts that share a prefix, and the rest); empty for a
	// client of its own.
	Of string
	// Mix is the query mix of the client's categories, stated as its
	// content: mix; nil when the trace names none.
	Mix *Mix

	weight int // the client's weight in the spec; 0 for none
}

// MinCorrelation is the smallest |Spearman| correlation of input and
// output lengths the spec states; weaker dependence is left out (drawn
// independently), as production traces show it (|ρ| ≤ 0.12).
const MinCorrelation = 0.05

// Spec writes a version-1 YAML spec named name with one client per Client,
// commented with the fit statistics: sample sizes, KS distances and grades
// of the chosen and rival laws, BIC of the arrival laws, the rate curve's
// selection, gap CV, grid and on/off findings, and the input–output
// correlation, which it states (correlation) from MinCorrelation up. Its
// duration runs on the trace's clock to the last arrival of any client,
// rounded up to a whole second. Each open-loop client states its rate on
// that clock as arrival stages, zero outside its active span, with the
// trace's count of arrivals (arrival.count), the process chosen by
// ArrivalFit.Process, and input and output as the chosen law clamped to
// the observed range (at least 1 token), or as the empirical quantile
// table when the best law is not good. A closed-loop client states its
// concurrency, and a spec with one states the trace's sessions as
// requests, each client weighted by its sessions.
func Spec(name string, clients []Client) ([]byte, error) {
	if len(clients) == 0 {
		return nil, errors.New("writing a spec: no clients")
	}
	var b bytes.Buffer
	span, sessions, open, closed := 0.0, 0, false, false
	for _, c := range clients {
		if a := c.Arrivals; c.Concurrency == 0 {
			end := a.Curve.Last
			if a.Grid.Detected {
				end += a.Grid.Period // arrivals are rounded up to the grid
			}
			span = math.Max(span, end)
		}
		sessions += c.Sessions
		open, closed = open || c.Concurrency == 0, closed || c.Concurrency > 0
	}
	fmt.Fprintf(&b, "# Fitted by surge fit from %d client(s); statistics in the comments.\n", len(clients))
	b.WriteString("# KS D is the Kolmogorov-Smirnov distance to the data; grades: good <= max(1.358/sqrt(n), 0.03), fair <= 0.10, else poor.\n")
	b.WriteString("version: 1\n")
	fmt.Fprintf(&b, "name: %s\n", strconv.Quote(name))
	if open {
		// The trace's clock to its last arrival: each client's rate is
		// stated on it, zero outside its active span.
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
	writeArrival(b, a)
	l := c.Lengths
	if c.Prefix != nil {
		l.Input = c.Prefix.Rest
	}
	if err := writeLengths(b, l); err != nil {
		return err
	}
	writeMix(b, c.Mix)
	return writePrefix(b, c.Prefix)
}

// writePrefix writes a client's pool of shared prefixes, if any.
func writePrefix(b *bytes.Buffer, p *PrefixFit) error {
	if p == nil {
		return nil
	}
	fmt.Fprintf(b, "    # prefix sharing: %.1f%% of first prompts share a prefix with an earlier one, %.1f%% of their tokens;\n", 100*p.Share, 100*p.Reuse)
	fmt.Fprintf(b, "    # a pool of %d uniformly drawn prompts repeats as often; input above is the rest of a sharing prompt\n", p.Pool)
	fmt.Fprintf(b, "    prefix:\n      pool: %d\n", p.Pool)
	return writeLength(b, "      ", "length", p.Length, 1)
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
	if r := l.Reasoning; r != nil {
		fmt.Fprintf(b, "    # reasoning: %.1f%% of the output tokens; output above is the answer after it, drawn apart from it\n", 100*l.ReasoningShare)
		if err := writeLength(b, "    ", "reasoning", *r, 1); err != nil {
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
		fmt.Fprintf(b, "%s# %s: the best single law is not good (or, for an episode, not within its bound), so the empirical quantile table is used\n", indent, key)
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
