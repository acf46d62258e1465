package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"surge/metrics"
	"surge/trace"
)

// ms formats a microsecond value in milliseconds with three significant
// digits, keeping every integer digit: 0.213, 21.3, 213, 21,300.
func ms(us float64) string { return num(us / 1000) }

// num formats v with three significant digits, keeping every integer
// digit, and groups thousands: 0.213, 21.3, 213, 21,300.
func num(v float64) string {
	if v == 0 {
		return "0"
	}
	// The exponent of v rounded to three significant digits decides the
	// decimals, so 0.99996 prints as 1.00, not 1.000.
	e, _ := strconv.Atoi(strings.SplitN(strconv.FormatFloat(v, 'e', 2, 64), "e", 2)[1])
	return group(strconv.FormatFloat(v, 'f', max(0, 2-e), 64))
}

// count formats an integer with grouped thousands.
func count[T int | int64](n T) string { return group(strconv.FormatInt(int64(n), 10)) }

// pct formats a fraction as a percentage: 0.1023 → "10.2%".
func pct(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }

// group inserts thousands separators into the integer part of s.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if frac != "" {
		frac = "." + frac
	}
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + b.String() + frac
}

// spread formats a confidence interval as the largest relative distance
// from the value to either end, like benchstat: "±2%". When that distance
// exceeds the value itself (over ±100%, or any interval around 0) a
// percentage says nothing, so the interval is given whole, in the
// column's unit, milliseconds: "[0, 2.77]".
func spread(q metrics.Percentile) string {
	ci := q.CI
	d := math.Max(q.Value-ci.Lo, ci.Hi-q.Value)
	switch {
	case d == 0:
		return "±0%"
	case d > math.Abs(q.Value):
		return "[" + ms(ci.Lo) + ", " + ms(ci.Hi) + "]"
	}
	r := 100 * d / math.Abs(q.Value)
	if r < 1 {
		return "±" + strconv.FormatFloat(r, 'f', 1, 64) + "%"
	}
	return "±" + strconv.FormatFloat(r, 'f', 0, 64) + "%"
}

// endMark is the word a report puts on a run that ended as e
// (trace.EndingOf): ABORTED when it stopped itself on its errors,
// INTERRUPTED when it was stopped or died before its end line, nothing
// when it finished.
func endMark(e trace.Ending) string {
	switch e {
	case trace.EndAborted:
		return "ABORTED"
	case trace.EndInterrupted, trace.EndDied:
		return "INTERRUPTED"
	}
	return ""
}

// shortHash is the first 12 hex digits of a "sha256:…" hash.
func shortHash(h string) string {
	_, hex, ok := strings.Cut(h, ":")
	if !ok {
		hex = h
	}
	if len(hex) > 12 {
		hex = hex[:12]
	}
	return hex
}

// table lays out rows in columns two spaces apart. The first column is
// left-aligned; of the others, those whose index is in left are too, and
// the rest right-aligned. Widths count runes.
type table struct {
	rows [][]string
	left map[int]bool
}

// add appends a row.
func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// widths are the columns' widths.
func (t *table) widths() []int {
	var ws []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(ws) {
				ws = append(ws, 0)
			}
			ws[i] = max(ws[i], width(c))
		}
	}
	return ws
}

// width is the columns the widest row takes with indent before it.
func (t *table) width(indent string) int {
	ws := t.widths()
	n := width(indent) + 2*max(0, len(ws)-1)
	for _, w := range ws {
		n += w
	}
	return n
}

// write prints the table with indent before every row.
func (t *table) write(w io.Writer, indent string) error {
	widths := t.widths()
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-width(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i == 0 || t.left[i] {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	return nil
}

// footnotes numbers caveats in order of first mention. The caveat that
// percentiles have too few values for an interval is one note, naming
// each percentile's need.
type footnotes struct {
	texts []string
	// width, when set, is the columns a note is wrapped to, under its
	// mark; 0 writes each note on one line.
	width int
	// need is, by percentile name in order of mention, the values its
	// interval needs; level is the confidence, in percent.
	need  []percentileNeed
	level string
}

// percentileNeed is how many values a percentile's interval needs.
type percentileNeed struct {
	p    float64
	name string
	n    int
}

// tooFewNote stands, among the texts, for the note of need.
const tooFewNote = "±∞"

// superscripts are the digits footnote marks are written with.
var superscripts = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

// clone is a copy of f that can be added to apart from f.
func (f footnotes) clone() footnotes {
	f.texts, f.need = slices.Clone(f.texts), slices.Clone(f.need)
	return f
}

// ref returns the mark of text, adding it if it is new.
func (f *footnotes) ref(text string) string {
	i := slices.Index(f.texts, text)
	if i < 0 {
		i = len(f.texts)
		f.texts = append(f.texts, text)
	}
	var b strings.Builder
	for _, d := range strconv.Itoa(i + 1) {
		b.WriteRune(superscripts[d-'0'])
	}
	return b.String()
}

// tooFew returns the mark of the note that percentile p needs n values
// for a confidence interval at level percent.
func (f *footnotes) tooFew(p float64, n int, level string) string {
	i, found := slices.BinarySearchFunc(f.need, p, func(e percentileNeed, p float64) int { return cmp.Compare(e.p, p) })
	if !found {
		f.need = slices.Insert(f.need, i, percentileNeed{p, metrics.PercentileName(p), n})
	}
	f.level = level
	return f.ref(tooFewNote)
}

// text is the text of note t.
func (f *footnotes) text(t string) string {
	if t != tooFewNote {
		return t
	}
	var needs []string
	for i, p := range f.need {
		if i == 0 {
			needs = append(needs, fmt.Sprintf("%s needs n ≥ %s", p.name, count(p.n)))
		} else {
			needs = append(needs, fmt.Sprintf("%s n ≥ %s", p.name, count(p.n)))
		}
	}
	return fmt.Sprintf("±∞: too few values for a %s%% confidence interval: %s", f.level, strings.Join(needs, ", "))
}

// write prints the footnotes, each wrapped to f.width under its mark.
func (f *footnotes) write(w io.Writer) error {
	if len(f.texts) > 0 {
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	for _, t := range f.texts {
		lines := []string{f.ref(t) + " " + f.text(t)}
		if f.width > 0 {
			lines = hanging(f.ref(t)+" ", f.text(t), f.width)
		}
		for _, l := range lines {
			if _, err := fmt.Fprintln(w, l); err != nil {
				return err
			}
		}
	}
	return nil
}
