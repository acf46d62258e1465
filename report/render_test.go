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

// TestJSONRoundTrip: a JSON report decodes back into the same summary,
// sessions figures included.
func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"run", "sessions"} {
		s := summarize(t, name)
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
			t.Errorf("%s: JSON report does not decode back into the summary it was written from", name)
		}
	}
}

// TestCSVShape: every row has six fields and the latency and sessions
// rows agree with the summary.
func TestCSVShape(t *testing.T) {
	t.Parallel()
	s := summarize(t, "sessions")
	var buf bytes.Buffer
	if err := CSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("CSV report does not parse: %v", err)
	}
	ss := s.All.Sessions
	want := map[[4]string][2]string{
		{AllScope, "latency", "ttft", "p50"}:         {f(s.All.Latency.TTFT.Percentiles[0].Value), "us"},
		{AllScope, "sessions", "", "complete"}:       {i(ss.Complete), ""},
		{AllScope, "sessions", "duration", "p50"}:    {f(ss.Duration.Percentiles[0].Value), "us"},
		{AllScope, "sessions", "max_context", "max"}: {f(ss.MaxContext.Max), "tokens"},
		{AllScope, "sessions", "ttft_later", "mean"}: {f(ss.TTFTLater.Mean), "us"},
		{"chat", "sessions", "", "warmup_excluded"}:  {"1", ""},
		{"rag", "sessions", "", "sessions"}:          {"", "absent: rag's sessions are single requests"},
	}
	got := map[[4]string][2]string{}
	for _, r := range rows {
		got[[4]string(r[:4])] = [2]string{r[4], r[5]}
	}
	for k, w := range want {
		g, ok := got[k]
		if k[0] == "rag" {
			if ok {
				t.Errorf("row %v present, want it %s", k, w[1])
			}
			continue
		}
		if g != w {
			t.Errorf("row %v = %v, want %v", k, g, w)
		}
	}
}

// TestSessionsBlock: the text sessions block is absent without sessions,
// leaves out rows with nothing to say, and shows whole numbers of
// requests and tokens as integers.
func TestSessionsBlock(t *testing.T) {
	t.Parallel()
	m := func(name string, vs ...float64) metrics.Metric {
		return metrics.Metric{Name: name, N: len(vs), Mean: vs[0], Max: vs[len(vs)-1],
			Percentiles: []metrics.Percentile{{P: 50, Value: vs[0]}, {P: 90, Value: vs[0]}, {P: 99, Value: vs[0]}}}
	}
	agents := &metrics.Sessions{Sessions: 3, Complete: 1, Failed: 1, Incomplete: 1,
		Duration: m("duration", 2e6), Requests: m("requests", 4), LLM: m("llm", 1e6), LLMBusy: m("llm_busy", 1e6),
		Tool: m("tool", 5e5), Think: m("think", 0), MaxContext: m("max_context", 1234),
		TTFTFirst: m("ttft_first", 200_000), TTFTLater: m("ttft_later", 50_000)}
	tests := []struct {
		name      string
		ss        *metrics.Sessions
		want, not []string
		reason    string
	}{
		{"none", nil, nil, []string{"sessions"}, "single-request workloads keep their report"},
		{"agents", agents,
			[]string{"3 measured (0 warmup excluded): 1 complete, 1 failed, 1 incomplete", "tool s 1 0.500", "requests 1 4.00 4 4 4 4", "TTFT later turns ms 1 50.0 50.0 50.0 50.0 50.0"},
			[]string{"think s", "TTFO", "ITL"}, "no session thought, no TTFO measured"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		p := &printer{w: &buf}
		p.sessions(&metrics.Summary{All: metrics.Scope{Sessions: tt.ss}})
		words := strings.Join(strings.Fields(buf.String()), " ") // columns' padding aside
		for _, w := range tt.want {
			if !strings.Contains(words, w) {
				t.Errorf("%s: block lacks %q (%s):\n%s", tt.name, w, tt.reason, buf.String())
			}
		}
		for _, n := range tt.not {
			if strings.Contains(words, n) {
				t.Errorf("%s: block has %q (%s):\n%s", tt.name, n, tt.reason, buf.String())
			}
		}
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
// (under it when both do not fit in TextWidth) when the header has one,
// with the footnote on how they may differ only when they do.
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
		{"both", reported, implied, "cache       prefix-cache hits 78.4% of 412,330 prompt tokens (server)\n            workload implies 80.0% in 16-token blocks\n", "the two rates one under the other, within 10 points: no footnote"},
		{"server only", reported, nil, "cache       prefix-cache hits 78.4% of 412,330 prompt tokens (server)\n", "records from before the header carried the implied reuse"},
		{"not reported", metrics.PrefixCache{Requests: 2, PromptTokens: 500}, implied, "cache       no prefix-cache hits reported by the server (cached_tokens absent or 0)\n            workload implies 80.0% in 16-token blocks¹\n", "no 0% rate the server never reported; 80 points apart: the footnote"},
		{"far apart", metrics.PrefixCache{Requests: 2, PromptTokens: 1000, CachedTokens: 100, Reported: true, HitRate: 0.1}, &trace.Reuse{Prompt: 1000, Cached: 800},
			"cache       prefix-cache hits 10.0% of 1,000 prompt tokens (server) · workload implies 80.0%¹\n", "side by side when they fit, with the footnote on how they differ"},
	}
	for _, tt := range tests {
		s := &metrics.Summary{All: metrics.Scope{Cache: tt.cache}, PrefixReuse: tt.implied}
		var buf bytes.Buffer
		p := &printer{w: &buf}
		p.cache(s)
		if buf.String() != tt.want {
			t.Errorf("%s: %q, want %q (%s)", tt.name, buf.String(), tt.want, tt.reason)
		}
		if notes, far := len(p.notes.texts), strings.Contains(tt.want, "¹"); far != (notes == 1) {
			t.Errorf("%s: %d footnotes, want one exactly when the two rates differ by more than %v", tt.name, notes, metrics.CacheTolerance)
		}
	}
}
