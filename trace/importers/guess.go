package importers

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"unicode"
)

// The field names GuessColumns recognises for each key, compared with
// case, spaces and punctuation dropped: the names common traces and
// loggers give arrival times and token counts.
var guessNames = []struct {
	key   string
	names []string
}{
	{"at", []string{"timestamp", "time", "ts", "t", "arrivaltime", "arrivedat", "arrival", "starttime", "starttimeoffset", "requesttime", "sendtime", "createdat", "created"}},
	{"input", []string{"inputtokens", "inputlength", "inputlen", "input", "prompttokens", "promptlength", "promptlen", "contexttokens", "contextlength", "numprefilltokens", "prefilltokens", "requesttokens", "intokens", "in"}},
	{"output", []string{"outputtokens", "outputlength", "outputlen", "output", "completiontokens", "generatedtokens", "generationtokens", "numdecodetokens", "decodetokens", "responsetokens", "outtokens", "out"}},
	{"session", []string{"sessionid", "conversationid", "session", "conversation", "chatid", "convid"}},
	{"client", []string{"clientid", "client", "tenantid", "tenant", "userid", "user", "app"}},
	{"category", []string{"category", "taskcategory", "tasktype", "task", "usecase", "intent", "querytype", "requestcategory"}},
}

// GuessColumns names the fields of a generic trace from its first bytes
// (the header of a CSV, or the keys and values of the first object of
// JSON Lines), for a file whose format Detect does not know: the input
// and output token fields (required), and the time, session, client and
// category fields when there are fields of those names (guessNames). It also
// guesses the time field's unit: iso for a date-time, else from the
// name's suffix (_ns, _us, _ms, _s), nanoseconds for APEX's
// StartTimeOffset, seconds otherwise. ok is false when no input and
// output fields are found.
func GuessColumns(head []byte) (format Format, c Columns, unit string, ok bool) {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if len(head) == 0 {
		return "", c, "", false
	}
	fields, values := headerFields(head)
	format = FormatCSV
	if head[0] == '{' {
		format = FormatJSONL
		fields, values = objectFields(head)
	}
	for _, g := range guessNames {
		for _, f := range fields {
			name := squash(f)
			if g.key == "at" {
				name = trimUnit(name)
			}
			if *c.field(g.key) == "" && slices.Contains(g.names, name) {
				*c.field(g.key) = f
			}
		}
	}
	if c.Input == "" || c.Output == "" {
		return "", Columns{}, "", false
	}
	if c.At != "" {
		unit = timeUnit(c.At, values[c.At])
	}
	return format, c, unit, true
}

// timeUnit guesses the unit of a time field from its name and a value.
func timeUnit(name, value string) string {
	v := strings.TrimSpace(value)
	if strings.Contains(v, "-") && strings.Contains(v, ":") {
		return "iso"
	}
	lower := strings.ToLower(name)
	for _, u := range []struct{ suffix, unit string }{{"ns", "ns"}, {"us", "us"}, {"usec", "us"}, {"micros", "us"}, {"ms", "ms"}, {"millis", "ms"}, {"s", "s"}, {"sec", "s"}, {"seconds", "s"}} {
		// time_ms, or timeMs: a suffix after an underscore, or a suffix of
		// two letters or more after a name of four or more.
		if strings.HasSuffix(lower, "_"+u.suffix) || len(u.suffix) > 1 && strings.HasSuffix(lower, u.suffix) && len(lower) >= len(u.suffix)+4 {
			return u.unit
		}
	}
	if squash(name) == "starttimeoffset" {
		return "ns" // APEX's request traces
	}
	return "s"
}

// timeSuffixes are the units a time field's name may end in.
var timeSuffixes = []string{"seconds", "millis", "micros", "usec", "sec", "ns", "us", "ms", "s"}

// trimUnit drops a unit from the end of a squashed time field's name
// (timestampms is timestamp), unless the name is only that.
func trimUnit(name string) string {
	for _, u := range timeSuffixes {
		if t, ok := strings.CutSuffix(name, u); ok && slices.Contains(guessNames[0].names, t) {
			return t
		}
	}
	return name
}

// squash lower-cases s and drops everything but letters and digits.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// headerFields returns a CSV's header fields and the first row's values.
func headerFields(head []byte) ([]string, map[string]string) {
	lines := strings.SplitN(string(head), "\n", 3)
	var fields []string
	for f := range strings.SplitSeq(strings.TrimRight(lines[0], "\r"), ",") {
		fields = append(fields, strings.Trim(strings.TrimSpace(f), `"`))
	}
	values := map[string]string{}
	if len(lines) > 1 {
		for i, v := range strings.Split(strings.TrimRight(lines[1], "\r"), ",") {
			if i < len(fields) {
				values[fields[i]] = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
	}
	return fields, values
}

// objectFields returns the keys of the first JSON object of head, in
// order, and its scalar values as text.
func objectFields(head []byte) ([]string, map[string]string) {
	keys := topKeys(head)
	values := map[string]string{}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) == nil {
		for k, v := range obj {
			values[k] = strings.Trim(string(v), `"`)
		}
	}
	return keys, values
}

// Detected returns o with the format of the named files when it names
// none: detected (DetectFiles), or, for files whose first is of no
// format Detect knows and no Columns, csv or jsonl with the columns GuessColumns finds (and
// their time unit when o has none). The error is Detect's when no
// columns are found either.
func (o ImportOptions) Detected(fsys fs.FS, names []string) (ImportOptions, error) {
	if o.Format != "" {
		return o, nil
	}
	f, err := DetectFiles(fsys, names, o.Columns != Columns{})
	if err == nil || o.Columns != (Columns{}) || len(names) == 0 {
		o.Format = f
		return o, err
	}
	if _, ferr := detectFile(fsys, names[0]); ferr == nil {
		return o, err // a known format, mixed with another
	}
	head, herr := peek(fsys, names[0], DetectBytes)
	if herr != nil {
		return o, err
	}
	gf, c, unit, ok := GuessColumns(head)
	if !ok {
		return o, err
	}
	o.Format, o.Columns = gf, c
	if o.TimeUnit == "" {
		o.TimeUnit = unit
	}
	return o, nil
}
