package importers

import (
	"fmt"
	"io"
	"strconv"
	"time"
)

// azureColumns are the columns of the Azure LLM inference traces (2023
// and 2024 releases alike).
var azureColumns = []string{"TIMESTAMP", "ContextTokens", "GeneratedTokens"}

// vidurColumns are the columns of Vidur's re-encoding of the Azure 2023
// traces (splitwise_*.csv).
var vidurColumns = []string{"arrived_at", "num_prefill_tokens", "num_decode_tokens"}

// azureLayouts are the timestamp layouts of the Azure traces, tried in
// order: 2023's naive date-time with 7 fractional digits (taken as UTC),
// 2024's with a +00:00 offset and optional fraction, and the 2025
// multimodal release's ISO form. A layout's .999999999 accepts any number
// of fractional digits, or none.
var azureLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
}

// NewAzure returns a Stream of the Azure LLM inference trace CSV in r
// (TIMESTAMP,ContextTokens,GeneratedTokens; the 2023 and 2024 layouts):
// a session per row at its timestamp's offset from the first row's,
// asking for ContextTokens of input and exactly GeneratedTokens of output.
// The trace records neither model nor content, so sessions carry no
// blocks. It reads the header now and the rows as Next asks.
func NewAzure(r io.Reader, opts Options) (*Stream, error) {
	rs, err := newCSVRows(r, "azure", azureColumns, parseAzureRow)
	if err != nil {
		return nil, err
	}
	return newStream(rs, opts), nil
}

// NewVidur returns a Stream of a Vidur trace CSV in r
// (arrived_at,num_prefill_tokens,num_decode_tokens, arrivals in seconds,
// other columns ignored), as NewAzure does for the Azure files: Vidur's
// splitwise_*.csv are the Azure 2023 rows with relative arrivals.
func NewVidur(r io.Reader, opts Options) (*Stream, error) {
	rs, err := newCSVRows(r, "vidur", vidurColumns, parseVidurRow)
	if err != nil {
		return nil, err
	}
	return newStream(rs, opts), nil
}

// parseAzureRow parses the fields TIMESTAMP, ContextTokens and
// GeneratedTokens of an Azure row into q, its arrival as time since the
// Unix epoch.
func parseAzureRow(f []string, q *request) error {
	t, err := parseAzureTime(f[0])
	if err != nil {
		return err
	}
	q.at = time.Duration(t.UnixNano())
	return parseTokens(f[1], f[2], q)
}

// parseAzureTime parses an Azure timestamp in any of azureLayouts,
// within the years 1970 to 2200 (so that nanoseconds since 1970 fit).
func parseAzureTime(s string) (time.Time, error) {
	for _, layout := range azureLayouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if y := t.Year(); y < 1970 || y > 2200 {
			return time.Time{}, fmt.Errorf("timestamp %q: year %d out of range 1970 to 2200", s, y)
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("timestamp %q: want a date-time like 2023-11-16 18:17:03.9799600 or 2024-05-10 00:00:00.009930+00:00", s)
}

// parseVidurRow parses the fields arrived_at (seconds), num_prefill_tokens
// and num_decode_tokens of a Vidur row into q.
func parseVidurRow(f []string, q *request) error {
	s, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return fmt.Errorf("arrived_at %q: want seconds", f[0])
	}
	if q.at, err = seconds(s); err != nil {
		return fmt.Errorf("arrived_at: %w", err)
	}
	return parseTokens(f[1], f[2], q)
}

// parseTokens parses a row's input and output token counts into q.
func parseTokens(in, out string, q *request) error {
	var err error
	if q.in, err = strconv.Atoi(in); err != nil {
		return fmt.Errorf("input tokens %q: want a whole number", in)
	}
	if q.out, err = strconv.Atoi(out); err != nil {
		return fmt.Errorf("output tokens %q: want a whole number", out)
	}
	return checkTokens(q.in, q.out)
}
