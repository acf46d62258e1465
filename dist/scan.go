package dist

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parser is a recursive-descent parser over s; pos is the byte offset of the
// next unread character.
type parser struct {
	s   string
	pos int
}

// errorf returns a *SyntaxError at byte offset at.
func (p *parser) errorf(at int, format string, args ...any) error {
	return p.wrap(at, fmt.Errorf(format, args...))
}

// wrap returns err as a *SyntaxError at byte offset at.
func (p *parser) wrap(at int, err error) error {
	return &SyntaxError{Column: utf8.RuneCountInString(p.s[:at]) + 1, Err: err}
}

// found describes the next character, for errors.
func (p *parser) found() string {
	if p.pos >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return strconv.QuoteRune(r)
}

// space skips blanks.
func (p *parser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

// peek returns the next byte, or 0 at the end.
func (p *parser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// accept consumes c if it is next.
func (p *parser) accept(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

// expect consumes c or fails, naming what it follows.
func (p *parser) expect(c byte, after string) error {
	if !p.accept(c) {
		return p.errorf(p.pos, "expected %q after %s, found %s", c, after, p.found())
	}
	return nil
}

// ident reads a name of ASCII letters, digits and underscores.
func (p *parser) ident(what string) (string, error) {
	start := p.pos
	for p.pos < len(p.s) && (isLetter(p.s[p.pos]) || (p.pos > start && isDigit(p.s[p.pos]))) {
		p.pos++
	}
	if p.pos == start {
		return "", p.errorf(p.pos, "expected %s, found %s", what, p.found())
	}
	return p.s[start:p.pos], nil
}

// number reads a decimal float with an optional k (×1e3) or M (×1e6)
// suffix. The suffix is added to the decimal exponent before conversion, so
// 1.1k is exactly 1100.
func (p *parser) number() (float64, error) {
	start := p.pos
	if !isNumStart(p.peek()) {
		return 0, p.errorf(p.pos, "expected a number, found %s", p.found())
	}
	_ = p.accept('+') || p.accept('-')
	digits := p.digits()
	if p.accept('.') {
		digits += p.digits()
	}
	if digits == 0 {
		return 0, p.errorf(start, "expected digits in number %q", p.s[start:p.pos])
	}
	mant, exp, err := p.s[start:p.pos], 0, error(nil)
	if c := p.peek(); c == 'e' || c == 'E' {
		save := p.pos
		p.pos++
		es := p.pos
		_ = p.accept('+') || p.accept('-')
		if p.digits() == 0 {
			p.pos = save // "2e" is 2 followed by "e", an error for the caller
		} else if exp, err = strconv.Atoi(p.s[es:p.pos]); err != nil {
			return 0, p.errorf(start, "exponent out of range in %q", p.s[start:p.pos])
		}
	}
	// Beyond ±2^20 the value is 0 or ±Inf anyway; bounding the exponent
	// keeps the suffix from overflowing it.
	exp = max(min(exp, 1<<20), -1<<20)
	switch {
	case p.accept('k'):
		exp += 3
	case p.accept('M'):
		exp += 6
	}
	v, err := strconv.ParseFloat(mant+"e"+strconv.Itoa(exp), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, p.errorf(start, "number %q out of range", p.s[start:p.pos])
	}
	return v, nil
}

// digits consumes decimal digits and returns how many.
func (p *parser) digits() int {
	start := p.pos
	for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
		p.pos++
	}
	return p.pos - start
}

// array reads "[v1 v2 ...]"; numbers are separated by blanks or commas.
func (p *parser) array() ([]float64, error) {
	if err := p.expect('[', `"="`); err != nil {
		return nil, err
	}
	vs := []float64{}
	for {
		p.space()
		if p.accept(']') {
			return vs, nil
		}
		v, err := p.number()
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		if c := p.peek(); c != ']' && c != ',' && strings.IndexByte(" \t\r\n", c) < 0 {
			return nil, p.errorf(p.pos, `expected a blank, "," or "]" after a number, found %s`, p.found())
		}
		p.accept(',')
	}
}

func isLetter(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isNumStart(c byte) bool { return isDigit(c) || c == '.' || c == '+' || c == '-' }
