package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// scanner walks JSON text in place, validating it as strictly as
// encoding/json (the grammar of RFC 8259; invalid UTF-8 is tolerated) while
// looking only at the values its caller asks for. It never allocates except
// for the rare strings that contain escapes and must be decoded.
type scanner struct {
	b     []byte
	i     int
	depth int
	// keep is set by DecodeText, which collects text in sink. The sink is
	// a value, not a pointer: the scanner's contents leak (its input is
	// aliased by what it returns), so a pointer would cost an allocation.
	keep bool
	sink textSink
	// choice is the index of the choice being read; with counting,
	// tokenChoices collects the indices of those that carry a token
	// (DecodeChoices).
	choice       int
	counting     bool
	tokenChoices []int
}

// strPlain marks the bytes that may appear unescaped inside a string and
// need no further attention.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// errEnd reports JSON that stops early.
var errEnd = errors.New("unexpected end of JSON")

// fail describes a syntax error at the current position.
func (s *scanner) fail(what string) error {
	if s.i >= len(s.b) {
		return fmt.Errorf("%w: expected %s", errEnd, what)
	}
	return fmt.Errorf("invalid character %q at offset %d: expected %s", s.b[s.i], s.i, what)
}

// ws skips whitespace.
func (s *scanner) ws() {
	i := s.i
	for i < len(s.b) && (s.b[i] == ' ' || s.b[i] == '\t' || s.b[i] == '\n' || s.b[i] == '\r') {
		i++
	}
	s.i = i
}

// peek returns the next byte after whitespace, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// end checks that only whitespace remains.
func (s *scanner) end() error {
	if s.ws(); s.i != len(s.b) {
		return s.fail("end of JSON")
	}
	return nil
}

// object walks an object, calling field for each key with the scanner
// positioned at the value, which field must consume. The key aliases the
// input unless it contained escapes.
func (s *scanner) object(field func(key []byte) error) error {
	if s.peek() != '{' {
		return s.fail("'{'")
	}
	if s.depth++; s.depth > maxDepth {
		return errors.New("JSON nested too deeply")
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		if s.peek() != '"' {
			return s.fail("object key")
		}
		key, err := s.key()
		if err != nil {
			return err
		}
		if s.peek() != ':' {
			return s.fail("':'")
		}
		s.i++
		if err := field(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("',' or '}'")
		}
	}
}

// array walks an array, calling elem with the scanner positioned at each
// element, which elem must consume.
func (s *scanner) array(elem func() error) error {
	if s.peek() != '[' {
		return s.fail("'['")
	}
	if s.depth++; s.depth > maxDepth {
		return errors.New("JSON nested too deeply")
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		s.depth--
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("',' or ']'")
		}
	}
}

// skip consumes any value.
func (s *scanner) skip() error {
	switch s.peek() {
	case '{':
		return s.object(func([]byte) error { return s.skip() })
	case '[':
		return s.array(s.skip)
	case '"':
		_, _, err := s.str()
		return err
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	_, err := s.number()
	return err
}

// literal consumes the literal lit.
func (s *scanner) literal(lit string) error {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return s.fail(lit)
	}
	s.i += len(lit)
	return nil
}

// str consumes a string, returning its raw contents between the quotes and
// whether they contain escapes. Raw contents are empty exactly when the
// decoded string is.
func (s *scanner) str() (raw []byte, escaped bool, err error) {
	if s.peek() != '"' {
		return nil, false, s.fail("string")
	}
	start := s.i + 1
	b, i := s.b, start // locals keep the hot loop in registers
	for {
		for i < len(b) && strPlain[b[i]] {
			i++
		}
		s.i = i
		switch {
		case i >= len(b):
			return nil, false, s.fail("'\"'")
		case b[i] == '"':
			s.i = i + 1
			return b[start:i], escaped, nil
		case b[i] == '\\':
			escaped = true
			if err := s.escape(); err != nil {
				return nil, false, err
			}
			i = s.i
		default:
			return nil, false, s.fail("string character (control characters must be escaped)")
		}
	}
}

// escape consumes one backslash escape.
func (s *scanner) escape() error {
	s.i++ // the backslash
	if s.i >= len(s.b) {
		return s.fail("escape")
	}
	switch s.b[s.i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i++
		return nil
	case 'u':
		s.i++
		for range 4 {
			if s.i >= len(s.b) || !isHex(s.b[s.i]) {
				return s.fail("hexadecimal digit")
			}
			s.i++
		}
		return nil
	}
	return s.fail("escape")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// key consumes an object key and returns its decoded bytes, aliasing the
// input when there is nothing to decode. Invalid UTF-8 is left as it is:
// keys are only compared with ASCII names, which it could never equal,
// replaced or not.
func (s *scanner) key() ([]byte, error) {
	start := s.i
	raw, escaped, err := s.str()
	if err != nil || !escaped {
		return raw, err
	}
	return s.unquote(start)
}

// text consumes a string and returns its decoded bytes, aliasing the input
// when there is nothing to decode. Like encoding/json, it replaces invalid
// UTF-8 with U+FFFD.
func (s *scanner) text() ([]byte, error) {
	s.ws()
	start := s.i
	raw, escaped, err := s.str()
	if err != nil || !escaped && utf8.Valid(raw) {
		return raw, err
	}
	return s.unquote(start)
}

// unquote decodes the string token from start to the current position,
// the rare slow path.
func (s *scanner) unquote(start int) ([]byte, error) {
	var v string
	if err := json.Unmarshal(s.b[start:s.i], &v); err != nil {
		return nil, err
	}
	return []byte(v), nil
}

// number consumes a number and returns its text:
// '-'? ('0' | [1-9][0-9]*) ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?
func (s *scanner) number() ([]byte, error) {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.i < len(s.b) && isDigit(s.b[s.i]):
		s.digits()
	default:
		return nil, s.fail("value")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return nil, s.fail("digit")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return nil, s.fail("digit")
		}
	}
	return s.b[start:s.i], nil
}

// digits consumes a run of digits and returns its length.
func (s *scanner) digits() int {
	start := s.i
	for s.i < len(s.b) && isDigit(s.b[s.i]) {
		s.i++
	}
	return s.i - start
}

// nonEmpty consumes a value and reports whether it is a non-empty string.
func (s *scanner) nonEmpty() (bool, error) {
	if s.peek() != '"' {
		return false, s.skip()
	}
	raw, _, err := s.str()
	return len(raw) > 0, err
}

// integer consumes a value and returns it as an int if it is a number that
// fits one, truncating a fraction; anything else gives ok false.
func (s *scanner) integer() (v int, ok bool, err error) {
	c := s.peek()
	if c != '-' && !isDigit(c) {
		return 0, false, s.skip()
	}
	num, err := s.number()
	if err != nil {
		return 0, false, err
	}
	if n, ok := parseInt(num); ok {
		return n, true, nil
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil || math.Abs(f) >= 1<<62 {
		return 0, false, nil
	}
	return int(f), true, nil
}

// parseInt parses an optionally negative run of digits below 10^18.
func parseInt(b []byte) (int, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// float consumes a value and stores it in dst if it is a number that
// parses as a float64; anything else, or a number out of range, leaves
// dst alone. A number of up to 32 bytes is converted without allocating.
func (s *scanner) float(dst *float64) error {
	c := s.peek()
	if c != '-' && !isDigit(c) {
		return s.skip()
	}
	num, err := s.number()
	if err != nil {
		return err
	}
	if f, err := strconv.ParseFloat(string(num), 64); err == nil {
		*dst = f
	}
	return nil
}
