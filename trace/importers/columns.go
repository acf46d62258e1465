package importers

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Columns names the fields of a generic request trace: the input and
// output tokens (required), and optionally the arrival time (without it
// the file holds lengths only, and the import chooses the arrivals), a
// client, a session (conversation) id and a category (the request's task
// type or use case, kept on its turn for fit's query mix).
type Columns struct {
	At, Input, Output string
	Client, Session   string
	Category          string
}

// columnKeys are the keys of ParseColumns, in the order String prints.
var columnKeys = []string{"at", "input", "output", "client", "session", "category"}

// ParseColumns reads a mapping such as
// "at=timestamp_s,input=in_tok,output=out_tok,session=conv_id": each key
// (at, input, output, client, session, category) once, at most, naming the field
// that holds it; input and output are required. It reads back what
// String writes.
func ParseColumns(s string) (Columns, error) {
	var c Columns
	var errs []error
	for part := range strings.SplitSeq(s, ",") {
		key, name, ok := strings.Cut(part, "=")
		key, name = strings.TrimSpace(key), strings.TrimSpace(name)
		dst := c.field(key)
		switch {
		case !ok || name == "":
			errs = append(errs, fmt.Errorf("%q: want KEY=FIELD", part))
		case dst == nil:
			errs = append(errs, fmt.Errorf("%q: the keys are %s", key, strings.Join(columnKeys, ", ")))
		case *dst != "":
			errs = append(errs, fmt.Errorf("%s given twice", key))
		default:
			*dst = name
		}
	}
	if len(errs) == 0 && (c.Input == "" || c.Output == "") {
		errs = append(errs, errors.New("want at least input= and output="))
	}
	if len(errs) == 0 && c.At == "" && c.Session != "" {
		errs = append(errs, errors.New("a session needs at=, the times that order and space its turns"))
	}
	if len(errs) > 0 {
		return Columns{}, fmt.Errorf("columns %q: %w", s, errors.Join(errs...))
	}
	return c, nil
}

// String returns the mapping as ParseColumns reads it, unmapped keys
// left out.
func (c Columns) String() string {
	var parts []string
	for _, k := range columnKeys {
		if v := *c.field(k); v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, ",")
}

// field returns the field of key, or nil for an unknown key.
func (c *Columns) field(key string) *string {
	switch key {
	case "at":
		return &c.At
	case "input":
		return &c.Input
	case "output":
		return &c.Output
	case "client":
		return &c.Client
	case "session":
		return &c.Session
	case "category":
		return &c.Category
	}
	return nil
}

// names returns the fields to read, in the order of columnKeys, unmapped
// ones left out.
func (c Columns) names() []string {
	var names []string
	for _, v := range []string{c.At, c.Input, c.Output, c.Client, c.Session, c.Category} {
		if v != "" {
			names = append(names, v)
		}
	}
	return names
}

// TimeUnits are the units of a generic trace's times: seconds,
// milliseconds, microseconds or nanoseconds from any origin, or ISO 8601
// date-times.
var TimeUnits = []string{"s", "ms", "us", "ns", "iso"}

// parseTime parses a time in unit as time on the file's own clock: a
// number of the unit, or, for iso, a date-time (RFC 3339, or the Azure
// layouts) as time since 1970.
func parseTime(s, unit string) (time.Duration, error) {
	if unit == "iso" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t, err = parseAzureTime(s)
		}
		if err != nil {
			return 0, fmt.Errorf("time %q: want an ISO 8601 date-time such as 2024-05-10T00:00:00.5Z", s)
		}
		if y := t.Year(); y < 1970 || y > 2200 {
			return 0, fmt.Errorf("time %q: year %d out of range 1970 to 2200", s, y)
		}
		return time.Duration(t.UnixNano()), nil
	}
	if unit == "ns" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return seconds(float64(n/1e9) + float64(n%1e9)/1e9) // exact to the nanosecond's float
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("time %q: want a number of %s", s, unit)
	}
	switch unit {
	case "ms":
		v /= 1e3
	case "us":
		v /= 1e6
	case "ns":
		v /= 1e9
	}
	return seconds(v)
}

// parseColumnRow parses the fields a generic trace maps (time, input,
// output, then client, session and category when mapped; Columns.names
// gives the order) into q and the row's client and session.
func parseColumnRow(f []string, c Columns, unit string, q *request) (client, session string, err error) {
	*q = request{}
	i := 0
	if c.At != "" {
		if q.at, err = parseTime(f[0], unit); err != nil {
			return "", "", fmt.Errorf("%s: %w", c.At, err)
		}
		i++
	}
	if err := parseTokens(f[i], f[i+1], q); err != nil {
		return "", "", err
	}
	i += 2
	if c.Client != "" {
		client = clientPart(f[i])
		i++
	}
	if c.Session != "" {
		if session = f[i]; session == "" {
			return "", "", fmt.Errorf("%s: empty session id", c.Session)
		}
		i++
	}
	if c.Category != "" {
		if q.category, err = category(f[i]); err != nil {
			return "", "", fmt.Errorf("%s: %w", c.Category, err)
		}
	}
	return client, session, nil
}

// maxCategory is the longest category a row may name, in bytes.
const maxCategory = 64

// category checks a row's category: any text of at most maxCategory
// bytes, spaces around it dropped; empty is none.
func category(s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxCategory {
		return "", fmt.Errorf("category of %d bytes, more than %d: a category names a kind of request (coding, chat), not its text", len(s), maxCategory)
	}
	return s, nil
}
