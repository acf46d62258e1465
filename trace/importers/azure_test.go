package importers

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

// TestAzureFiles imports every Azure 2023 file and its Vidur copy: the
// row counts the traces' README gives, spans of 57 to 58 minutes, and
// single-request sessions asking for exactly their output.
func TestAzureFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		open func(io.Reader) (*Stream, error)
		rows int
	}{
		{"azure-llm-2023/AzureLLMInferenceTrace_code.csv", azureSrc, 8819},
		{"azure-llm-2023/AzureLLMInferenceTrace_conv.csv", azureSrc, 19366},
		{"vidur-splitwise/splitwise_code.csv", vidurSrc, 8819},
		{"vidur-splitwise/splitwise_conv.csv", vidurSrc, 19366},
	}
	for _, tt := range tests {
		ss := drain(t, openStream(t, tt.file, tt.open))
		if len(ss) != tt.rows {
			t.Errorf("%s: %d sessions, want %d rows", tt.file, len(ss), tt.rows)
			continue
		}
		if span := ss[len(ss)-1].At(); span < 57*time.Minute || span >= 59*time.Minute {
			t.Errorf("%s: span %v, want 57 to 58 minutes", tt.file, span)
		}
		for i, s := range ss {
			tu := s.Turns[0]
			if s.Index != i || len(s.Turns) != 1 || tu.MaxTokens != tu.OutputTokens || tu.MinTokens != tu.OutputTokens || !tu.IgnoreEOS || len(tu.Blocks) != 0 {
				t.Fatalf("%s: session %d is %+v, want request %d of exact output and no blocks", tt.file, i, s, i)
			}
		}
	}
}

// TestAzureVidurAgree checks known answer 1: the Vidur copies hold the
// Azure rows with relative arrivals, so both parsers give the same
// arrivals to within 1 µs (the Azure files have 100 ns resolution, Vidur's
// 1 µs) and the same token counts exactly.
func TestAzureVidurAgree(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"code", "conv"} {
		a := rawArrivals(t, "azure-llm-2023/AzureLLMInferenceTrace_"+kind+".csv", parseAzureRow, azureColumns)
		v := rawArrivals(t, "vidur-splitwise/splitwise_"+kind+".csv", parseVidurRow, vidurColumns)
		if len(a) != len(v) {
			t.Fatalf("%s: %d Azure rows, %d Vidur rows", kind, len(a), len(v))
		}
		worst := time.Duration(0)
		for i := range a {
			da, dv := a[i].at-a[0].at, v[i].at-v[0].at
			worst = max(worst, (da - dv).Abs())
			if a[i].in != v[i].in || a[i].out != v[i].out {
				t.Fatalf("%s row %d: Azure %d/%d tokens, Vidur %d/%d", kind, i, a[i].in, a[i].out, v[i].in, v[i].out)
			}
		}
		t.Logf("%s: %d rows, largest arrival difference %v", kind, len(a), worst)
		if worst >= time.Microsecond {
			t.Errorf("%s: arrivals differ by up to %v, want < 1µs", kind, worst)
		}
	}
}

// rawArrivals parses every row of a shared CSV trace at full (ns)
// resolution, before the Stream rounds offsets to microseconds.
func rawArrivals(t *testing.T, rel string, parse func([]string, *request) error, cols []string) []request {
	t.Helper()
	rs, err := newCSVRows(openShared(t, rel), "test", cols, parse)
	if err != nil {
		t.Fatal(err)
	}
	var out []request
	for {
		var q request
		_, err := rs.next(&q)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		out = append(out, q)
	}
}

// TestAzure2024 imports rows in the 2024 layout, with a +00:00 offset and
// with and without fractional seconds, beside 2023 and ISO forms.
func TestAzure2024(t *testing.T) {
	t.Parallel()
	const file = "TIMESTAMP,ContextTokens,GeneratedTokens\n" +
		"2024-05-10 00:00:00.009930+00:00,4808,10\n" +
		"2024-05-10 00:00:01+00:00,3180,8\n" +
		"2024-05-10 00:00:01.5+00:00,10,0\n" +
		"2024-05-10 02:00:02.25+02:00,7,1\n" + // 00:00:02.25 UTC
		"2024-05-10 00:00:03.0000001,5,5\n" + // 2023's naive form, taken as UTC
		"2024-05-10T00:00:04.269Z,6,6\n"
	st, err := NewAzure(strings.NewReader(file), Options{Client: "c", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ss := drain(t, st)
	want := []struct {
		at      int64
		in, out int
	}{{0, 4808, 10}, {990070, 3180, 8}, {1490070, 10, 1}, {2240070, 7, 1}, {2990070, 5, 5}, {4259070, 6, 6}}
	if len(ss) != len(want) {
		t.Fatalf("%d sessions, want %d", len(ss), len(want))
	}
	for i, w := range want {
		s := ss[i]
		if s.AtUS != w.at || s.Turns[0].InputTokens != w.in || s.Turns[0].OutputTokens != w.out || s.Client != "c" || s.Model != "m" {
			t.Errorf("row %d: %+v, want at %dus, %d in, %d out (0 asked as 1)", i, s, w.at, w.in, w.out)
		}
	}
}

// TestAzureRowErrors checks that malformed rows are refused naming the
// file and line, and that the header is checked.
func TestAzureRowErrors(t *testing.T) {
	t.Parallel()
	const head = "TIMESTAMP,ContextTokens,GeneratedTokens\n"
	const ok = "2023-11-16 18:17:03.9799600,4808,10\n"
	tests := []struct {
		reason, data, want string
	}{
		{"bad time", head + ok + "yesterday,4,5\n", `f.csv:3: timestamp "yesterday"`},
		{"year out of range", head + "1900-01-01 00:00:00,4,5\n", "f.csv:2: timestamp \"1900-01-01 00:00:00\": year 1900"},
		{"fractional tokens", head + "2023-11-16 18:17:03,4.5,5\n", `f.csv:2: input tokens "4.5": want a whole number`},
		{"no input", head + "2023-11-16 18:17:03,0,5\n", "f.csv:2: input 0 tokens: want 1 to"},
		{"negative output", head + "2023-11-16 18:17:03,4,-1\n", "f.csv:2: output -1 tokens: want 0 to"},
		{"huge input", head + "2023-11-16 18:17:03,99999999999,1\n", "f.csv:2: input 99999999999 tokens"},
		{"short row", head + ok + "\n2023-11-16 18:17:04,4\n", "f.csv:4: 2 fields, want at least 3"},
		{"quotes are not CSV quoting", head + "2023-11-16 18:17:04,\"4,5\",1\n", `f.csv:2: input tokens "\"4": want a whole number`},
		{"out of order", head + ok + "2023-11-16 18:17:02.9799600,4,5\n", "f.csv:3: arrival -1s is before the previous row's (line 2) by 1s: rows must be in time order"},
		{"missing column", "TIMESTAMP,ContextTokens\n" + ok, "azure header, line 1: no column GeneratedTokens"},
		{"empty file", "", "azure: empty file"},
	}
	for _, tt := range tests {
		_, err := importAll(tt.data, Options{Name: "f.csv"})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.reason, err, tt.want)
		}
	}
}

// importAll imports an Azure file given as a string.
func importAll(data string, opts Options) (*Stream, error) {
	st, err := NewAzure(strings.NewReader(data), opts)
	if err != nil {
		return nil, err
	}
	for {
		if _, err := st.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return st, nil
			}
			return st, err
		}
	}
}

// TestVidurRowErrors checks Vidur's own field: arrivals in seconds.
func TestVidurRowErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason, row, want string
	}{
		{"not a number", "soon,4,5", `arrived_at "soon": want seconds`},
		{"not finite", "NaN,4,5", "arrived_at: time NaN s"},
		{"too far", "1e12,4,5", "arrived_at: time 1e+12 s"},
	}
	for _, tt := range tests {
		var q request
		err := parseVidurRow(strings.Split(tt.row, ","), &q)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.reason, err, tt.want)
		}
	}
}

// FuzzAzureRow checks that no row makes the Azure parser panic, and that
// what it accepts makes a valid session.
func FuzzAzureRow(f *testing.F) {
	f.Add("2023-11-16 18:17:03.9799600", "4808", "10")
	f.Add("2024-05-10 00:00:00.009930+00:00", "1", "0")
	f.Add("2024-10-15T12:00:00.269Z", "10000000", "3")
	f.Fuzz(func(t *testing.T, ts, in, out string) {
		checkRow(t, parseAzureRow, []string{ts, in, out})
	})
}

// FuzzVidurRow does for Vidur rows what FuzzAzureRow does for Azure's.
func FuzzVidurRow(f *testing.F) {
	f.Add("3501.721937", "197", "183")
	f.Add("-1e9", "1", "0")
	f.Fuzz(func(t *testing.T, at, in, out string) {
		checkRow(t, parseVidurRow, []string{at, in, out})
	})
}

// checkRow parses fields and, if the parser accepts them, checks the
// session a Stream makes of them.
func checkRow(t *testing.T, parse func([]string, *request) error, fields []string) {
	var q request
	if parse(fields, &q) != nil {
		return
	}
	if math.Abs(q.at.Seconds()) > 1e10 || q.in < 1 || q.out < 0 {
		t.Fatalf("accepted %q as %+v", fields, q)
	}
	s := newStream(nil, Options{}).session(&q)
	if err := s.Validate(); err != nil {
		t.Fatalf("accepted %q into an invalid session: %v", fields, err)
	}
}
