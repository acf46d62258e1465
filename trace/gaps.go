package trace

import (
	"encoding/json"
	"strconv"
)

// Gaps are a record's inter-token gaps in microseconds (Record.ITLUS).
// They are most of a records file, so they write and read as a JSON
// array of integers by hand, without reflection: a record of 300 tokens
// writes and reads several times faster. Anything but a plain array of
// integers (spaces, a fraction, an exponent) is read by encoding/json.
type Gaps []int64

// MarshalJSON writes the gaps as a JSON array of integers.
func (g Gaps) MarshalJSON() ([]byte, error) {
	if g == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 2+len(g)*6)
	b = append(b, '[')
	for i, v := range g {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads a JSON array of integers, or null.
func (g *Gaps) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*g = nil
		return nil
	}
	if out, ok := parseInts(data); ok {
		*g = out
		return nil
	}
	var v []int64
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*g = v
	return nil
}

// parseInts reads data as [i,i,…] of decimal integers that fit int64,
// with nothing else in it; ok is false for anything else.
func parseInts(data []byte) (out Gaps, ok bool) {
	if len(data) < 2 || data[0] != '[' || data[len(data)-1] != ']' {
		return nil, false
	}
	body := data[1 : len(data)-1]
	out = Gaps{}
	if len(body) == 0 {
		return out, true
	}
	n := 1
	for _, c := range body {
		if c == ',' {
			n++
		}
	}
	out = make(Gaps, 0, n)
	for start := 0; start <= len(body); {
		end := start
		for end < len(body) && body[end] != ',' {
			end++
		}
		v, ok := atoi(body[start:end])
		if !ok {
			return nil, false
		}
		out = append(out, v)
		start = end + 1
	}
	return out, true
}

// atoi reads an optionally negative decimal integer of at most 18
// digits (so it cannot overflow), with no sign other than '-', no
// leading zeros but "0" itself, and nothing else.
func atoi(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}
