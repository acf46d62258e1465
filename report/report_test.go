package report

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"surge/metrics"
	"surge/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// summarize reads a records file from testdata and summarises it per client.
func summarize(t *testing.T, name string) *metrics.Summary {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := trace.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	return metrics.Summarize(rs, metrics.Options{PerClient: true})
}

// TestGolden renders the hand-written records files in every format and
// compares them with testdata/*.golden; run with -update to rewrite them
// after checking the difference by eye.
func TestGolden(t *testing.T) {
	t.Parallel()
	formats := []struct {
		ext    string
		render func(io.Writer, *metrics.Summary) error
	}{
		{"txt", Text},
		{"json", JSON},
		{"csv", CSV},
	}
	tests := []struct {
		name   string
		reason string
	}{
		{"run", "two clients, warmup, SLOs, an HTTP 500, a timeout, a drop, a coalescing server, a chat template, prefix-cache hits reported for one client only beside the reuse the workload implies"},
		{"killed", "one client, no end line, no SLO, sending far behind schedule, no usage so no prefix-cache hits reported and no implied reuse"},
		{"embeddings", "an embeddings client beside a chat client: its scope has latency and inputs/s, n/a for token times and output tokens; the whole run has both"},
		{"rerank", "a rerank client alone: latency, documents/s and the input tokens of its pairs, n/a for token times and output tokens, the server's special tokens around each pair a template"},
		{"sessions", "multi-turn sessions: chats with think time, cached later turns, a warmup session and one failed by a timeout; agent episodes with tool calls, reasoning and a sub-agent fork and join; a batch job released over 1 s; single-request rag sessions, which get no sessions figures of their own"},
	}
	for _, tt := range tests {
		s := summarize(t, tt.name)
		for _, f := range formats {
			var buf bytes.Buffer
			if err := f.render(&buf, s); err != nil {
				t.Fatalf("%s.%s: %v", tt.name, f.ext, err)
			}
			path := filepath.Join("testdata", tt.name+"."+f.ext+".golden")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s (%s) differs from %s:\n%s", tt.name, tt.reason, path, buf.String())
			}
		}
	}
}
