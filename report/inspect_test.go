package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"surge/trace"
)

// traceSummary writes sessions as a trace with header h and summarises it.
func traceSummary(t *testing.T, h trace.Header, sessions []*trace.Session) *trace.Summary {
	t.Helper()
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := trace.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := trace.Summarize(r)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestInspectText checks the lines of a trace's summary: totals over the
// clients, the reuse line only when reuse was computed, a row per client,
// closed-loop clients without a rate, and a row for all only when there
// are several clients.
func TestInspectText(t *testing.T) {
	t.Parallel()
	// Client a starts at 0, 1, 3, 4, 6 s: rate 4/6, gaps' CV 1/3.
	var open []*trace.Session
	for i, at := range []int64{0, 1, 3, 4, 6} {
		open = append(open, &trace.Session{Client: "a", Index: i, AtUS: at * 1e6,
			Turns: []trace.Turn{{InputTokens: 10 * (i + 1), OutputTokens: i + 1}}})
	}
	closed := &trace.Session{Client: "b", Turns: []trace.Turn{{InputTokens: 1000, OutputTokens: 1}, {InputTokens: 1100, OutputTokens: 2}}}
	tests := []struct {
		name     string
		clients  []trace.ClientInfo
		sessions []*trace.Session
		reuse    *trace.Reuse
		want     []string // lines the text holds, as regular expressions
		notWant  []string
	}{{
		name:     "one open client",
		clients:  []trace.ClientInfo{{Name: "a"}},
		sessions: open,
		want: []string{
			`^sessions   5 \(5 requests\) over 6s$`,
			`^tokens     150 input, 15 output$`,
			`^ +a +5 +0\.667 +0\.333 `,
			`^input tokens \(log bins\)$`,
			`^output tokens \(log bins\)$`,
		},
		notWant: []string{`^reuse `, `^ +all `},
	}, {
		name:     "open and closed clients, with reuse",
		clients:  []trace.ClientInfo{{Name: "a"}, {Name: "b", Concurrency: 2}},
		sessions: append([]*trace.Session{closed}, open...),
		reuse:    &trace.Reuse{BlockTokens: 16, Prompt: 1000, Cached: 250},
		want: []string{
			`^sessions   6 \(7 requests\) over 6s$`,
			`^tokens     2250 input, 18 output$`,
			`^reuse      25\.0% of prompt tokens \(250 of 1000\) are in 16-token blocks an earlier prompt held$`,
			`^ +b +1 +closed +- `,
			`^ +a +5 +0\.667 +0\.333 `,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum := traceSummary(t, trace.Header{Clients: tt.clients}, tt.sessions)
			sum.Reuse = tt.reuse
			var buf bytes.Buffer
			if err := InspectText(&buf, "t.jsonl", sum); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			if !strings.HasPrefix(text, "trace      t.jsonl (format ") {
				t.Errorf("text does not start with the trace's name:\n%s", text)
			}
			for _, re := range tt.want {
				if !regexp.MustCompile("(?m)" + re).MatchString(text) {
					t.Errorf("no line matching %s in\n%s", re, text)
				}
			}
			for _, re := range tt.notWant {
				if regexp.MustCompile("(?m)" + re).MatchString(text) {
					t.Errorf("a line matches %s in\n%s", re, text)
				}
			}
			rows := 1 + len(tt.clients) // the column names, a row per client
			if len(tt.clients) > 1 {
				rows++ // the row for all
			}
			if got := strings.Count(text, "\n  ") - histogramLines(text); got != rows {
				t.Errorf("%d table rows, want %d:\n%s", got, rows, text)
			}
		})
	}
}

// histogramLines counts the bars of the histograms in an InspectText text.
func histogramLines(text string) int {
	return len(regexp.MustCompile(`(?m)^  +\d+ – `).FindAllString(text, -1))
}
