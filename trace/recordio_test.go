package trace

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

func sampleRun() (RunHeader, []Record, RunEnd) {
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := RunHeader{
		WorkloadHash: "sha256:aa", Seed: 1, Target: "http://127.0.0.1:8000", Start: start,
		WarmupUS: 1e6, SLO: []SLO{{Metric: "ttft", Percentile: 99, BoundUS: 2e6}},
	}
	recs := []Record{
		{Client: "c", Session: 0, IntendedUS: 10, SentUS: 12, TTFTUS: 50_000, E2EUS: 700_000, ITLUS: []int64{10_000, 9_000},
			InputTokens: 100, ClientInputTokens: 100, ServerInputTokens: 100, OutputTokens: 3, ServerOutputTokens: 3, Chunks: 3, Status: 200, FinishReason: "length",
			CachedTokens: 64, ServerQueueUS: 120, ServerTTFTUS: 48_000, ServerE2EUS: 695_000},
		{Client: "c", Session: 1, IntendedUS: 20, SentUS: 21, E2EUS: 5, Status: 500, ErrorClass: ErrHTTP, Error: "internal error"},
	}
	end := RunEnd{End: start.Add(2 * time.Second), DurationUS: 2e6, Scheduled: 2, Sent: 2}
	return h, recs, end
}

func TestRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	h, recs, end := sampleRun()
	var buf bytes.Buffer
	w, err := NewRecordWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(end); err != nil {
		t.Fatal(err)
	}
	rs, err := ReadRecords(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Header.Format != RecordsFormat || !rs.Header.Start.Equal(h.Start) || rs.Header.SLO[0].BoundUS != 2e6 {
		t.Errorf("header read back as %+v", rs.Header)
	}
	if len(rs.Records) != 2 || rs.Records[0].ITLUS[1] != 9_000 || rs.Records[1].OK() || !rs.Records[0].OK() {
		t.Errorf("records read back as %+v", rs.Records)
	}
	if rs.End == nil || rs.End.Sent != 2 || rs.End.Interrupted {
		t.Errorf("end read back as %+v", rs.End)
	}
}

func TestRecordsWithoutEnd(t *testing.T) {
	t.Parallel()
	h, recs, _ := sampleRun()
	var buf bytes.Buffer
	w, _ := NewRecordWriter(&buf, h)
	w.Write(&recs[0])
	w.Flush()
	// A killed run: no end line, and half a record at the end.
	data := buf.String() + `{"client":"c","sess`
	rs, err := ReadRecords(strings.NewReader(data))
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated last line gave %v", err)
	}
	if rs == nil || len(rs.Records) != 1 || rs.End != nil {
		t.Errorf("want the one complete record and no end, got %+v", rs)
	}
}

func TestRecordsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ reason, data, want string }{
		{"an empty file has no header", "", "empty"},
		{"a trace is not a records file", `{"surge_trace":1}` + "\n", "format version 0"},
		{"a bad record names its line", `{"surge_records":1}` + "\n{oops\n", "records line 2"},
	}
	for _, tt := range tests {
		if _, err := ReadRecords(strings.NewReader(tt.data)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.reason, err, tt.want)
		}
	}
}

func TestRecordWriterConcurrent(t *testing.T) {
	t.Parallel()
	h, recs, end := sampleRun()
	var buf bytes.Buffer
	w, _ := NewRecordWriter(&buf, h)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			for i := 0; i < 100; i++ {
				r := recs[0]
				r.Session = g*100 + i
				w.Write(&r)
			}
		})
	}
	wg.Wait()
	w.Close(end)
	rs, err := ReadRecords(&buf)
	if err != nil || len(rs.Records) != 800 {
		t.Fatalf("read %d records, err %v; want 800 whole lines", len(rs.Records), err)
	}
}

// TestRecordWriterFlushesOnItsOwn checks that a record written right after
// a flush reaches the file within about 100 ms even if no other record
// follows: a run killed then keeps it.
func TestRecordWriterFlushesOnItsOwn(t *testing.T) {
	t.Parallel()
	h, recs, _ := sampleRun()
	var buf syncBuffer
	w, _ := NewRecordWriter(&buf, h)
	// Both writes come within 100 ms of the header's flush, so neither
	// flushes by itself.
	w.Write(&recs[0])
	w.Write(&recs[1])
	deadline := time.Now().Add(2 * time.Second)
	for strings.Count(buf.String(), "\n") < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("records still buffered after 2 s:\n%s", buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRecordLineIsJSON holds RecordWriter's lines, whose gaps it writes
// itself, to encoding/json's encoding of the same records, byte for byte:
// with and without gaps, negative ones, a tail, and strings that hold the
// key the gaps follow.
func TestRecordLineIsJSON(t *testing.T) {
	t.Parallel()
	h, recs, _ := sampleRun()
	recs = append(recs,
		Record{Client: `"e2e_us":1`, Error: `x","e2e_us":5,"`, E2EUS: -3, ITLUS: []int64{-1, 0, 7}, ITLTail: &GapTail{}},
		Record{Client: "<&>", E2EUS: 9, ITLUS: []int64{1}},
		Record{Client: "empty", ITLUS: []int64{}},
	)
	recs[2].ITLTail.Add(40)
	var buf bytes.Buffer
	w, err := NewRecordWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	_, lines, _ := strings.Cut(buf.String(), "\n") // the header first
	if lines != want.String() {
		t.Errorf("records written as\n%s\nencoding/json writes\n%s", lines, want.String())
	}
}
