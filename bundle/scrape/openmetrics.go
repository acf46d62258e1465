package scrape

import (
	"bytes"
	"strings"
)

// fromOpenMetrics rewrites OpenMetrics text into the Prometheus text
// format expfmt's parser reads. It keeps what surge uses (names, types,
// labels, values) and drops the rest:
//   - "# EOF", "# UNIT" and "# HELP" lines go (HELP because a counter's
//     family must be renamed, below, and HELP is never recorded);
//   - "# TYPE x counter" becomes "# TYPE x_total counter", since
//     OpenMetrics names the family x and its sample x_total;
//   - types the text format lacks (unknown, info, stateset) become untyped;
//   - exemplars (" # {...} v") and timestamps (seconds in OpenMetrics,
//     milliseconds in the text format) are cut from sample lines.
func fromOpenMetrics(body []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(body))
	for line := range bytes.Lines(body) {
		s := strings.TrimRight(string(line), "\r\n")
		switch {
		case s == "" || s == "# EOF" || strings.HasPrefix(s, "# UNIT ") || strings.HasPrefix(s, "# HELP "):
			continue
		case strings.HasPrefix(s, "# TYPE "):
			s = omType(s)
		case strings.HasPrefix(s, "#"):
		default:
			s = omSample(s)
		}
		out.WriteString(s)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// omType rewrites one OpenMetrics TYPE line.
func omType(s string) string {
	f := strings.Fields(s)
	if len(f) != 4 {
		return s
	}
	name, typ := f[2], strings.ToLower(f[3])
	switch typ {
	case "counter":
		if !strings.HasSuffix(name, "_total") {
			name += "_total"
		}
	case "unknown", "info", "stateset":
		typ = "untyped"
	}
	return "# TYPE " + name + " " + typ
}

// omSample cuts the exemplar and timestamp from a sample line, keeping
// "name{labels} value".
func omSample(s string) string {
	end := labelsEnd(s)
	fields := strings.Fields(s[end:])
	if len(fields) == 0 {
		return s
	}
	return s[:end] + " " + fields[0]
}

// labelsEnd returns the index just past a sample line's name and label
// set, honouring quoted label values with escapes; on a malformed line it
// returns the name's end so the parser reports the error.
func labelsEnd(s string) int {
	open := strings.IndexAny(s, "{ \t")
	if open < 0 {
		return len(s)
	}
	if s[open] != '{' {
		return open
	}
	quoted := false
	for i := open + 1; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == '}':
			return i + 1
		}
	}
	return open
}
