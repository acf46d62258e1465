package importers

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestStatsWriteText holds each kind of import's summary to the bytes
// surge import printed before the summary moved here.
func TestStatsWriteText(t *testing.T) {
	t.Parallel()
	skips := Skips{Rows: 3, First: []*RowError{{Name: "a.csv", Line: 3, Err: errors.New("input tokens -1")}, {Line: 7, Err: errors.New("out of order")}}}
	tests := []struct {
		name  string
		files []string
		opts  ImportOptions
		st    Stats
		want  string
	}{
		{"requests", []string{"a.csv"}, ImportOptions{},
			Stats{Format: FormatAzure, Sessions: 5, Span: 1500 * time.Millisecond, Hash: "h1", Files: []FileStats{{Name: "a.csv"}}},
			"surge import: 5 sessions from 1 azure file over 1.5s\nworkload h1\n"},
		{"skipped, failed and capped", []string{"a.csv", "b.csv"}, ImportOptions{Reshape: Reshape{MaxContext: 500}},
			Stats{Format: FormatMooncake, Sessions: 1, Span: time.Second, Hash: "h2", Capped: 2, Files: []FileStats{{Name: "a.csv", Skipped: skips}, {Name: "b.csv", Failed: 1}}},
			"surge import: 1 sessions from 2 mooncake files over 1s\n  a.csv: skipped 3 malformed rows, the first:\n    a.csv:3: input tokens -1\n    line 7: out of order\n  b.csv: left out 1 failed request (0 response tokens)\n  capped 2 sessions to --max-context 500 tokens\nworkload h2\n"},
		{"conversations", []string{"w1", "w2"}, ImportOptions{},
			Stats{Format: FormatWEKA, Sessions: 2, Hash: "h3", Capped: 1},
			"surge import: 2 sessions from 2 weka files\n  capped 1 session to --max-context 0 tokens\nworkload h3\n"},
		{"servegen lengths given", []string{"c.csv"}, ImportOptions{Input: 500, Output: 50},
			Stats{Format: FormatServeGen, Sessions: 9, Span: time.Minute, Hash: "h4", Files: []FileStats{{Name: "c.csv", NoLengths: true, Failed: 2}}},
			"surge import: 9 sessions from 1 servegen file over 1m0s\n  c.csv: no length PMFs: every request 500:50 tokens (--lengths IN:OUT)\n  c.csv: left out 2 failed requests (0 response tokens)\nworkload h4\n"},
		{"servegen default lengths", []string{"c.csv"}, ImportOptions{},
			Stats{Format: FormatServeGen, Sessions: 9, Span: time.Minute, Hash: "h4", Files: []FileStats{{Name: "c.csv", NoLengths: true}}},
			"surge import: 9 sessions from 1 servegen file over 1m0s\n  c.csv: no length PMFs: every request 1024:256 tokens (--lengths IN:OUT)\nworkload h4\n"},
		{"sharegpt", []string{"s.json"}, ImportOptions{Tokenizer: "o200k_base", Reshape: Reshape{MaxContext: 100}},
			Stats{Format: FormatShareGPT, Sessions: 4, Span: 2 * time.Second, Hash: "h5", Truncated: 1, Dropped: 2, Files: []FileStats{{Name: "s.json", Skipped: Skips{Rows: 1, First: []*RowError{{Name: "s.json", Line: 2, Err: errors.New("no id")}}}}}},
			"surge import: 4 conversations from s.json over 2s, tokens in o200k_base\n  skipped 1 malformed conversation, the first:\n    s.json:2: no id\n  cut 1 conversation short (a broken human/gpt alternation, an empty message or --max-context)\n  left out 2 conversations whose first turn exceeds --max-context 100\nworkload h5\n"},
		{"sharegpt, nothing left out", []string{"s.json"}, ImportOptions{Tokenizer: "cl100k_base"},
			Stats{Format: FormatShareGPT, Sessions: 1, Hash: "h6", Files: []FileStats{{Name: "s.json"}}},
			"surge import: 1 conversations from s.json over 0s, tokens in cl100k_base\nworkload h6\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := tt.st.WriteText(&b, tt.files, tt.opts); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if b.String() != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, b.String(), tt.want)
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestStatsWriteTextError returns the first write's error.
func TestStatsWriteTextError(t *testing.T) {
	t.Parallel()
	st := Stats{Format: FormatAzure, Files: []FileStats{{Name: "a.csv", Skipped: Skips{Rows: 1}}}}
	if err := st.WriteText(failWriter{}, []string{"a.csv"}, ImportOptions{}); err == nil || err.Error() != "disk full" {
		t.Errorf("WriteText to a failing writer: %v, want disk full", err)
	}
}
