package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"surge/metrics"
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

// write prints the table with indent before every row.
func (t *table) write(w io.Writer, indent string) error {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
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

// footnotes numbers caveats in order of first mention.
type footnotes struct{ texts []string }

// superscripts are the digits footnote marks are written with.
var superscripts = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

// ref returns the mark of text, adding it if it is new.
func (f *footnotes) ref(text string) string {
	i := 0
	for i < len(f.texts) && f.texts[i] != text {
		i++
	}
	if i == len(f.texts) {
		f.texts = append(f.texts, text)
	}
	var b strings.Builder
	for _, d := range strconv.Itoa(i + 1) {
		b.WriteRune(superscripts[d-'0'])
	}
	return b.String()
}

// write prints the footnotes, one a line.
func (f *footnotes) write(w io.Writer) error {
	if len(f.texts) > 0 {
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	for _, t := range f.texts {
		if _, err := fmt.Fprintf(w, "%s %s\n", f.ref(t), t); err != nil {
			return err
		}
	}
	return nil
}
