package dist

import (
	"math"
	"strconv"
)

// named remembers how a distribution built by New was written: its kind and
// its parameters in canonical order, so that String prints what was given.
type named struct {
	name string
	keys []string
	vals []float64
}

// kind returns the distribution's kind name.
func (n named) kind() string { return n.name }

// appendArgs appends "k1=v1,k2=v2" in canonical order.
func (n named) appendArgs(b []byte) []byte {
	for i, k := range n.keys {
		b = appendParam(b, k, n.vals[i])
	}
	return b
}

// callString prints c as kind(args).
func callString(c caller) string {
	b := append([]byte(c.kind()), '(')
	b = c.appendArgs(b)
	return string(append(b, ')'))
}

// appendNum appends v in the shortest form that parses back to v exactly.
func appendNum(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// fmtNum formats v like appendNum, for error messages.
func fmtNum(v float64) string { return string(appendNum(nil, v)) }

// appendSep appends a comma unless b ends an opening parenthesis.
func appendSep(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '(' {
		b = append(b, ',')
	}
	return b
}

// appendParam appends ",key=value" (without the comma after "(").
func appendParam(b []byte, key string, v float64) []byte {
	b = append(appendSep(b), key...)
	return appendNum(append(b, '='), v)
}

// appendArray appends ",key=[v1 v2 ...]".
func appendArray(b []byte, key string, vs []float64) []byte {
	b = append(append(appendSep(b), key...), '=', '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendNum(b, v)
	}
	return append(b, ']')
}

// appendBounds appends ",min=lo,max=hi", leaving out infinite bounds.
func appendBounds(b []byte, lo, hi float64) []byte {
	if !math.IsInf(lo, -1) {
		b = appendParam(b, "min", lo)
	}
	if !math.IsInf(hi, 1) {
		b = appendParam(b, "max", hi)
	}
	return b
}
