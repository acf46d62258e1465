package importers

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"surge/trace"
)

// TestRowLimits checks that rows beyond a trace's limits are refused with
// the file and line, or skipped and listed with --skip-bad, rather than
// failing the whole import at the trace writer without a line: token
// counts past trace.MaxTokens, and arrivals more than a year after the
// first row's.
func TestRowLimits(t *testing.T) {
	t.Parallel()
	data := "TIMESTAMP,ContextTokens,GeneratedTokens\n" +
		"2023-11-16 18:00:00,10,1\n" +
		"2023-11-16 18:00:01,1000000000000000,1\n" + // line 3: 10^15 tokens
		"2023-11-16 18:00:02,10,20000000\n" + // 4: output past MaxTokens
		"2025-01-16 18:00:00,10,1\n" + // 5: 14 months after line 2
		"2025-01-16 18:00:01,10,1\n" // 6
	if _, err := importAll(data, Options{Name: "a.csv"}); err == nil || !strings.HasPrefix(err.Error(), "a.csv:3: input 1000000000000000 tokens: want 1 to 10000000 (trace.MaxTokens)") {
		t.Errorf("without skipping: got %v", err)
	}
	st, err := importAll(data, Options{Name: "a.csv", SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	sk := st.Skipped()
	var got []string
	for _, e := range sk.First {
		got = append(got, e.Error())
	}
	want := []string{
		"a.csv:3: input 1000000000000000 tokens",
		"a.csv:4: output 20000000 tokens",
		"a.csv:5: arrival 10248h0m0s after the first row's is past a year",
		"a.csv:6: arrival 10248h0m1s after the first row's is past a year",
	}
	if st.Sessions() != 1 || sk.Rows != 4 || len(got) != 4 {
		t.Fatalf("%d sessions, %d skipped: %q; want 1 and 4", st.Sessions(), sk.Rows, got)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("skipped row %d: %q, want it to start %q", i, got[i], w)
		}
	}
}

// TestImportSaysSkippedRows checks that surge import's summary counts the
// rows skipped for the limits and lists the first with their lines and
// reasons.
func TestImportSaysSkippedRows(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	rows.WriteString("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:00:00,10,1\n")
	for i := range 7 {
		fmt.Fprintf(&rows, "2023-11-16 18:00:%02d,%d,1\n", i+1, int64(trace.MaxTokens)+1)
	}
	fsys := fstest.MapFS{"a.csv": {Data: []byte(rows.String())}}
	opts := ImportOptions{Format: FormatAzure, SkipBad: true}
	st, err := Import(context.Background(), &strings.Builder{}, fsys, []string{"a.csv"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := st.WriteText(&text, []string{"a.csv"}, opts); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"skipped 7 malformed rows, the first:", "a.csv:3: input 10000001 tokens: want 1 to 10000000 (trace.MaxTokens)", "a.csv:7:"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("summary lacks %q:\n%s", w, text.String())
		}
	}
}

// TestShareGPTTurnLimit checks that a conversation longer than a trace's
// turns per session ends at trace.MaxTurns and counts as cut short,
// rather than failing the import at the trace writer.
func TestShareGPTTurnLimit(t *testing.T) {
	t.Parallel()
	msgs := make([]shareGPTMessage, 0, 2*(trace.MaxTurns+5))
	for range trace.MaxTurns + 5 {
		msgs = append(msgs, shareGPTMessage{From: "human", Value: "hi"}, shareGPTMessage{From: "gpt", Value: "yo"})
	}
	turns, cut, err := shareGPTTurns(msgs, ShareGPTOptions{Count: words})
	if err != nil || len(turns) != trace.MaxTurns || !cut {
		t.Errorf("%d turns, cut %v, %v; want %d, cut", len(turns), cut, err, trace.MaxTurns)
	}
}
