package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/bundle"
	"surge/metrics"
	"surge/metrics/compare"
	"surge/trace"
)

// endedAs is the golden run's records summarized as if its end line
// said end.
func endedAs(t *testing.T, end *trace.RunEnd) *metrics.Summary {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := trace.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	if end != nil {
		e := *rs.End
		e.Interrupted, e.Aborted = end.Interrupted, end.Aborted
		end = &e
	}
	rs.End = end
	return metrics.Summarize(rs, metrics.Options{})
}

// TestEndingWords checks that every report names a run's ending as its
// end line says (trace.EndingOf): an aborted run, whose end line says
// interrupted too, is ABORTED in the text header and "aborted" in the
// HTML and the bundle's run line, as its footnote says; an interrupted
// run (or one with no end line) INTERRUPTED; a finished one neither.
func TestEndingWords(t *testing.T) {
	t.Parallel()
	aborted := &trace.RunEnd{Interrupted: true, Aborted: "20 of the first 20 requests failed"}
	for _, c := range []struct {
		name  string
		end   *trace.RunEnd
		mark  string // in the text report's run line
		other string // never there
	}{
		{"aborted", aborted, "ABORTED", "INTERRUPTED"},
		{"interrupted", &trace.RunEnd{Interrupted: true}, "INTERRUPTED", "ABORTED"},
		{"died", nil, "INTERRUPTED", "ABORTED"},
		{"finished", &trace.RunEnd{}, "", "INTERRUPTED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := endedAs(t, c.end)
			var text bytes.Buffer
			if err := Text(&text, s); err != nil {
				t.Fatal(err)
			}
			run, _, _ := strings.Cut(text.String(), "\nrequests")
			if !strings.Contains(run, c.mark) || strings.Contains(run, c.other) {
				t.Errorf("run line %q: want %q in it and not %q", run, c.mark, c.other)
			}
			if c.name == "aborted" && !strings.Contains(text.String(), "aborted after") {
				t.Errorf("the aborted run's footnote does not say aborted:\n%s", text.String())
			}
			var html bytes.Buffer
			if err := HTML(&html, HTMLInput{Summary: s}); err != nil {
				t.Fatal(err)
			}
			if word := strings.ToLower(c.mark); word != "" && !strings.Contains(html.String(), "— "+word) {
				t.Errorf("the HTML report's duration does not say %q", word)
			}
			if c.end != nil {
				if span := runSpan(s.Header.Start, c.end); c.mark != "" && !strings.HasSuffix(span, ", "+strings.ToLower(c.mark)) {
					t.Errorf("bundle run span %q, want it to end %q", span, strings.ToLower(c.mark))
				}
			}
		})
	}
	var fields []string
	manifestFields(func(label, format string, args ...any) {
		fields = append(fields, label+" "+fmt.Sprintf(format, args...))
	},
		&bundle.Manifest{Interrupted: true, Aborted: aborted.Aborted})
	if all := strings.Join(fields, "\n"); !strings.Contains(all, ", aborted") || strings.Contains(all, "interrupted") {
		t.Errorf("an aborted run's manifest shows as:\n%s", all)
	}
	var b bytes.Buffer
	run := compare.Run{Target: "http://x", Interrupted: true, Ending: trace.EndingOf(aborted)}
	r := comparison()
	r.Candidate = run
	if err := CompareText(&b, r); err != nil {
		t.Fatal(err)
	}
	if run, _, _ := strings.Cut(b.String(), "\nworkload"); !strings.Contains(run, "ABORTED") || strings.Contains(run, "INTERRUPTED") {
		t.Errorf("the comparison of an aborted run does not say so:\n%s", b.String())
	}
}
