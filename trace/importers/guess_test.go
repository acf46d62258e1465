package importers

import (
	"bytes"
	"context"
	"math"
	"testing"
	"testing/fstest"
)

// TestGuessColumns names the fields of generic traces by their names,
// and the time unit by the field's name or value.
func TestGuessColumns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason, head string
		format       Format
		want         Columns
		unit         string
	}{
		{"APEX-style JSON Lines: StartTimeOffset in ns",
			`{"RequestID": "a1", "StartTimeOffset": 1500000000, "ContextTokens": 812, "GeneratedTokens": 40}` + "\n",
			FormatJSONL, Columns{At: "StartTimeOffset", Input: "ContextTokens", Output: "GeneratedTokens"}, "ns"},
		{"a CSV in milliseconds with conversations",
			"ts_ms,prompt_tokens,completion_tokens,conversation_id\n10,5,7,c1\n",
			FormatCSV, Columns{At: "ts_ms", Input: "prompt_tokens", Output: "completion_tokens", Session: "conversation_id"}, "ms"},
		{"ISO date-times", "created_at,input_tokens,output_tokens,user\n2024-05-10T00:00:00Z,5,7,u\n",
			FormatCSV, Columns{At: "created_at", Input: "input_tokens", Output: "output_tokens", Client: "user"}, "iso"},
		{"a task-type column", "timestamp,input_tokens,output_tokens,Task Type\n1,5,7,coding\n",
			FormatCSV, Columns{At: "timestamp", Input: "input_tokens", Output: "output_tokens", Category: "Task Type"}, "s"},
		{"lengths only", "Input Tokens,Output Tokens\n5,7\n", FormatCSV, Columns{Input: "Input Tokens", Output: "Output Tokens"}, ""},
		{"seconds by default", `{"time": 1.5, "input_length": 5, "output_length": 7}`, FormatJSONL, Columns{At: "time", Input: "input_length", Output: "output_length"}, "s"},
		{"no token fields", "a,b,c\n1,2,3\n", "", Columns{}, ""},
	}
	for _, tt := range tests {
		f, c, unit, ok := GuessColumns([]byte(tt.head))
		if ok != (tt.format != "") || f != tt.format || c != tt.want || unit != tt.unit {
			t.Errorf("%s: %q %+v %q %v; want %q %+v %q", tt.reason, f, c, unit, ok, tt.format, tt.want, tt.unit)
		}
	}
}

// TestImportGuessed imports an APEX-style file with no options: times in
// nanoseconds become offsets from the first request, to the microsecond.
func TestImportGuessed(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"apex.jsonl": {Data: []byte(`{"RequestID": "a", "StartTimeOffset": 1000000000, "ContextTokens": 100, "GeneratedTokens": 5}
{"RequestID": "b", "StartTimeOffset": 1250500000, "ContextTokens": 200, "GeneratedTokens": 6}
`)}}
	var out bytes.Buffer
	st, err := Import(context.Background(), &out, fsys, []string{"apex.jsonl"}, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, ss := readTrace(t, out.Bytes())
	if st.Format != FormatJSONL || len(ss) != 2 || ss[1].AtUS != 250500 || ss[1].Turns[0].InputTokens != 200 {
		t.Errorf("format %s, sessions %+v; want jsonl, the second at 250.5 ms with 200 tokens", st.Format, ss)
	}
}

// TestImportLengthsOnly places the rows of a file of lengths without
// times: at --rate, Poisson from the seed or evenly, or closed loop.
func TestImportLengthsOnly(t *testing.T) {
	t.Parallel()
	var rows []byte
	rows = append(rows, "input_tokens,output_tokens\n"...)
	for range 2000 {
		rows = append(rows, "100,10\n"...)
	}
	fsys := fstest.MapFS{"lengths.csv": {Data: rows}}
	for _, tt := range []struct {
		reason string
		opts   ImportOptions
		closed bool
		span   float64 // seconds, the last start
	}{
		{"Poisson at 4/s", ImportOptions{Rate: 4, Seed: 1}, false, 500},
		{"evenly at 4/s", ImportOptions{Rate: 4, Even: true}, false, 1999.0 / 4},
		{"closed loop", ImportOptions{Concurrency: 3}, true, 0},
	} {
		var out bytes.Buffer
		if _, err := Import(context.Background(), &out, fsys, []string{"lengths.csv"}, tt.opts); err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		h, ss := readTrace(t, out.Bytes())
		last := float64(ss[len(ss)-1].AtUS) / 1e6
		if len(ss) != 2000 || (h.Clients[0].Concurrency > 0) != tt.closed || math.Abs(last-tt.span) > 0.1*tt.span+1e-6 {
			t.Errorf("%s: %d sessions, concurrency %d, last at %g s; want 2000, closed %v, about %g s", tt.reason, len(ss), h.Clients[0].Concurrency, last, tt.closed, tt.span)
		}
	}
}
