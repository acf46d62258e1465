package report

import (
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// TextWidth is the most columns a line of the text report takes (a
// column is a rune: the report's marks, "·", "±", "≤" and the superscript
// digits, are one column wide each). Fields and footnotes wrap to it; a
// single word longer than a whole line is left whole. They measure their
// lines in bytes, which are never fewer than runes, so a wrapped line
// fits even where a tool counts bytes (mawk's length does).
const TextWidth = 100

// MinTextWidth is the fewest columns a text report is laid out in, however
// narrow its terminal: its tables (SLOs, clients, sessions, the engine's)
// fit in them.
const MinTextWidth = 80

// FitWidth is the width of a text report for a terminal of cols columns:
// cols, but at least MinTextWidth; TextWidth when there is no terminal
// (cols ≤ 0).
func FitWidth(cols int) int {
	if cols <= 0 {
		return TextWidth
	}
	return max(cols, MinTextWidth)
}

// WidthFor is the width of a text report written to w: its terminal's
// (FitWidth), or TextWidth when w is not a terminal, as a file, a pipe or
// a bundle's report.txt is not.
func WidthFor(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return TextWidth
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return TextWidth
	}
	return FitWidth(cols)
}

// labelWidth is the width of the label column of the text report's
// fields ("throughput  "), and so the indent of their continuation
// lines.
const labelWidth = 12

// width is the number of columns s takes.
func width(s string) int { return utf8.RuneCountInString(s) }

// size is the bytes of s: its width where every rune counts its bytes,
// what wrapping measures.
func size(s string) int { return len(s) }

// wrapWords breaks text into lines of at most room columns at its spaces;
// a word longer than room gets a line of its own.
func wrapWords(text string, room int) []string { return wrapHang(text, room, room) }

// wrapHang is wrapWords with a first line of at most first columns and
// the others of at most rest.
func wrapHang(text string, first, rest int) []string {
	var lines []string
	cur := ""
	for _, w := range words(text) {
		room := first
		if len(lines) > 0 {
			room = rest
		}
		switch {
		case cur == "":
			cur = w
		case size(cur)+1+size(w) <= room:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// words are the words of text, a relation ("≥", "≤") kept with the
// words on either side of it: "n ≥ 368" is never broken.
func words(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		if n := len(out); n > 0 && (relation(w) || strings.HasSuffix(out[n-1], " ≥") || strings.HasSuffix(out[n-1], " ≤") || relation(out[n-1])) {
			out[n-1] += " " + w
			continue
		}
		out = append(out, w)
	}
	return out
}

// relation reports whether w is a comparison sign.
func relation(w string) bool { return w == "≥" || w == "≤" }

// pack lays parts out as a field's value, joined by " · " on lines of at
// most room columns, breaking between parts where it can and within a
// part (at its spaces) only when the part alone is longer than a line.
func pack(parts []string, room int) []string {
	var lines []string
	cur := ""
	for _, part := range parts {
		switch {
		case cur == "":
		case size(cur)+len(" · ")+size(part) <= room:
			cur += " · " + part
			continue
		default:
			lines = append(lines, cur)
		}
		words := wrapWords(part, room)
		lines = append(lines, words[:len(words)-1]...)
		cur = words[len(words)-1]
	}
	return append(lines, cur)
}

// fieldLines are the lines of a field of the text report: label padded
// to labelWidth, then the parts packed to lines of cols columns,
// continuation lines indented under the first.
func fieldLines(cols int, label string, parts ...string) []string {
	lines := pack(parts, cols-labelWidth)
	pad := strings.Repeat(" ", labelWidth)
	for i := range lines {
		head := pad
		if i == 0 {
			head = label + strings.Repeat(" ", max(1, labelWidth-width(label)))
		}
		lines[i] = strings.TrimRight(head+lines[i], " ")
	}
	return lines
}

// hanging wraps text to cols columns after first, indenting the lines
// after the first by first's width: a footnote under its mark.
func hanging(first, text string, cols int) []string {
	lines := wrapWords(text, cols-width(first))
	pad := strings.Repeat(" ", width(first))
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else {
			lines[i] = pad + lines[i]
		}
	}
	return lines
}
