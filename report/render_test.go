package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"surge/metrics"
	"surge/trace"
)

// TestJSONRoundTrip: a JSON report decodes back into the same summary.
func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	s := summarize(t, "run")
	var buf bytes.Buffer
	if err := JSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	back := struct {
		Format int `json:"surge_report"`
		*metrics.Summary
	}{Summary: &metrics.Summary{}}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Format != Format || !reflect.DeepEqual(back.Summary, s) {
		t.Errorf("JSON report does not decode back into the summary it was written from")
	}
}

// TestCSVShape: every row has six fields and the latency rows agree with
// the summary.
func TestCSVShape(t *testing.T) {
	t.Parallel()
	s := summarize(t, "run")
	var buf bytes.Buffer
	if err := CSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("CSV report does not parse: %v", err)
	}
	found := false
	for _, r := range rows {
		if r[0] == AllScope && r[1] == "latency" && r[2] == "ttft" && r[3] == "p50" {
			found = r[4] == f(s.All.Latency.TTFT.Percentiles[0].Value) && r[5] == "us"
		}
	}
	if !found {
		t.Error("no (all) latency ttft p50 row carrying the summary's value in us")
	}
}

// TestEmptyRun: a run with no measured request renders in every format
// and says why its figures are empty.
func TestEmptyRun(t *testing.T) {
	t.Parallel()
	rs := &trace.Records{Header: trace.RunHeader{Format: trace.RecordsFormat, Target: "http://x"}}
	s := metrics.Summarize(rs, metrics.Options{PerClient: true})
	for _, render := range []func(io.Writer, *metrics.Summary) error{Text, JSON, CSV} {
		if err := render(io.Discard, s); err != nil {
			t.Error(err)
		}
	}
	var buf bytes.Buffer
	if err := Text(&buf, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"INTERRUPTED", "no measured request was sent", "no end line", "no successful request"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report of an empty run lacks %q:\n%s", want, buf.String())
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	s := summarize(t, "run")
	for name, render := range map[string]func(io.Writer, *metrics.Summary) error{"text": Text, "json": JSON, "csv": CSV} {
		if err := render(failWriter{}, s); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s: error %v, want the writer's", name, err)
		}
	}
}

// TestCacheLine: the text report's prefix-cache line gives a rate only
// when the server reported cached tokens, and the workload's beside it
// when the header has one.
func TestCacheLine(t *testing.T) {
	t.Parallel()
	reported := metrics.PrefixCache{Requests: 2, PromptTokens: 412_330, CachedTokens: 323_267, Reported: true, HitRate: 323_267.0 / 412_330}
	implied := &trace.Reuse{BlockTokens: 16, Prompt: 1000, Cached: 800}
	tests := []struct {
		name    string
		cache   metrics.PrefixCache
		implied *trace.Reuse
		want    string
		reason  string
	}{
		{"both", reported, implied, "cache       prefix-cache hits 78.4% of 412,330 prompt tokens (server) · workload implies 80.0% in 16-token blocks¹\n", "the two rates side by side, with the footnote on how they differ"},
		{"server only", reported, nil, "cache       prefix-cache hits 78.4% of 412,330 prompt tokens (server)\n", "records from before the header carried the implied reuse"},
		{"not reported", metrics.PrefixCache{Requests: 2, PromptTokens: 500}, implied, "cache       no prefix-cache hits reported by the server (cached_tokens absent or 0) · workload implies 80.0% in 16-token blocks¹\n", "no 0% rate the server never reported"},
	}
	for _, tt := range tests {
		s := &metrics.Summary{All: metrics.Scope{Cache: tt.cache}, PrefixReuse: tt.implied}
		var buf bytes.Buffer
		p := &printer{w: &buf}
		p.cache(s)
		if buf.String() != tt.want {
			t.Errorf("%s: %q, want %q (%s)", tt.name, buf.String(), tt.want, tt.reason)
		}
		if notes := len(p.notes.texts); (tt.implied != nil) != (notes == 1) {
			t.Errorf("%s: %d footnotes, want one exactly when the workload's reuse is shown", tt.name, notes)
		}
	}
}
