package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"surge/bundle"
	"surge/trace"
)

// recordsFile is a records file of n successful requests started at
// start, with an end line 2.5 s later unless end is false.
func recordsFile(t *testing.T, h trace.RunHeader, n int, end bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	rw, err := trace.NewRecordWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		at := int64(i) * 100_000
		if err := rw.Write(&trace.Record{Client: "c", Session: i, IntendedUS: at, SentUS: at,
			TTFTUS: 50_000, TTFOUS: 50_000, E2EUS: 200_000, OutputTokens: 10, Chunks: 10}); err != nil {
			t.Fatal(err)
		}
	}
	if !end {
		if err := rw.Flush(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if err := rw.Close(trace.RunEnd{End: h.Start.Add(2500 * time.Millisecond), Sent: n}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// traceFile is a trace of one session, with its workload hash.
func traceFile(t *testing.T) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, trace.Header{Clients: []trace.ClientInfo{{Name: "c"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&trace.Session{Client: "c", Turns: []trace.Turn{{InputTokens: 10, OutputTokens: 10}}}); err != nil {
		t.Fatal(err)
	}
	hash, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), hash
}

// TestBundleText checks what BundleText says of partial bundles: how far
// the run got, its span from the records, whether the trace is the run's
// workload, the files it lacks and its records' figures.
func TestBundleText(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tr, hash := traceFile(t)
	h := trace.RunHeader{WorkloadHash: hash, Start: start}
	tests := []struct {
		name string
		fsys fstest.MapFS
		want []string // lines, as regular expressions
	}{{
		name: "a trace only",
		fsys: fstest.MapFS{bundle.TraceFile: {Data: tr}},
		want: []string{
			`^state      killed: `,
			`^workload   ` + hash + ` \(trace\.jsonl; nothing to check it against\)$`,
			`^missing    manifest\.json, records\.jsonl, report\.html, report\.json, report\.txt$`,
		},
	}, {
		name: "records of a run that ended, without a manifest",
		fsys: fstest.MapFS{bundle.TraceFile: {Data: tr}, bundle.RecordsFile: {Data: recordsFile(t, h, 3, true)}},
		want: []string{
			`^state      unfinished: `,
			`^run        2026-01-02T03:04:05Z – 2026-01-02T03:04:07Z \(2\.5s\)$`,
			`^workload   ` + hash + ` \(trace\.jsonl matches the records header\)$`,
			`^records    3 measured, 3 ok$`,
		},
	}, {
		name: "records of a killed run, another workload's",
		fsys: fstest.MapFS{bundle.TraceFile: {Data: tr}, bundle.RecordsFile: {Data: recordsFile(t, trace.RunHeader{WorkloadHash: "sha256:other", Start: start}, 2, false)}},
		want: []string{
			`^run        2026-01-02T03:04:05Z – \(no end line\)$`,
			`^workload   sha256:other ≠ trace\.jsonl's ` + hash + `$`,
			`^records    2 measured, 2 ok$`,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := bundle.Open(tt.fsys)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := BundleText(&buf, "run-1", b, b.Verify()); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			if !strings.HasPrefix(text, "bundle     run-1\n") {
				t.Errorf("text does not start with the bundle's name:\n%s", text)
			}
			for _, re := range tt.want {
				if !regexp.MustCompile("(?m)" + re).MatchString(text) {
					t.Errorf("no line matching %s in\n%s", re, text)
				}
			}
		})
	}
}

// TestServerText checks what the target said of itself: nothing, its
// error, or its model then its version headers in order, also without a
// model (the first header used to be left out of the sort).
func TestServerText(t *testing.T) {
	t.Parallel()
	headers := map[string]string{"f": "6", "e": "5", "d": "4", "c": "3", "b": "2", "a": "1"}
	tests := []struct {
		name string
		s    *bundle.Server
		want string
	}{
		{"none", nil, ""},
		{"error", &bundle.Server{Error: "connection refused", Model: "m"}, " (connection refused)"},
		{"model only", &bundle.Server{Model: "m"}, " (model m)"},
		{"model and headers", &bundle.Server{Model: "z", Headers: headers}, " (model z; a: 1; b: 2; c: 3; d: 4; e: 5; f: 6)"},
		{"headers only", &bundle.Server{Headers: headers}, " (a: 1; b: 2; c: 3; d: 4; e: 5; f: 6)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 { // map order varies from call to call
				if got := serverText(tt.s); got != tt.want {
					t.Fatalf("serverText = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

// TestByteSize checks sizes for people: bytes, kilobytes, megabytes.
func TestByteSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 kB"}, {1536, "2 kB"}, {1 << 20, "1.0 MB"}, {5 << 19, "2.5 MB"}}
	for _, tt := range tests {
		if got := byteSize(tt.n); got != tt.want {
			t.Errorf("byteSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
