package recompute

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/internal/cli"
)

// record is one request line of records.jsonl, decoded here rather than
// with surge's trace package so that a misread field cannot hide on both
// sides. Optional fields are pointers: nil means absent.
type record struct {
	Client       string  `json:"client"`
	Session      int     `json:"session"`
	Turn         int     `json:"turn"`
	Warmup       bool    `json:"warmup"`
	Fault        string  `json:"fault"`
	IntendedUS   int64   `json:"intended_us"`
	QueueUS      int64   `json:"queue_us"`
	SentUS       int64   `json:"sent_us"`
	FirstByteUS  *int64  `json:"first_byte_us"`
	TTFTUS       *int64  `json:"ttft_us"`
	TTFOUS       *int64  `json:"ttfo_us"`
	E2EUS        *int64  `json:"e2e_us"`
	ITLUS        []int64 `json:"itl_us"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	ClientInput  int64   `json:"client_input_tokens"`
	ServerInput  int64   `json:"server_input_tokens"`
	ServerOutput int64   `json:"server_output_tokens"`
	Chunks       int64   `json:"chunks"`
	Choices      int64   `json:"choices"`
	CachedTokens int64   `json:"cached_tokens"`
	WaitUS       int64   `json:"wait_us"`
	ToolCalls    int     `json:"tool_calls"`
	Status       int     `json:"status"`
	Retries      int     `json:"retries"`
	ErrorClass   string  `json:"error_class"`
	NotStreamed  bool    `json:"not_streamed"`
	ServerTTFTUS int64   `json:"server_ttft_us"`
	ServerE2EUS  int64   `json:"server_e2e_us"`
	Error        string  `json:"error"`
	ITLTail      *tail   `json:"itl_tail"` // records version 2: the gaps past the first 16,384
}

// tail is a record's gaps past the first 16,384: [gap, count] pairs,
// expanded into ITLUS as they are read.
type tail struct {
	Gaps [][2]int64 `json:"gaps"`
}

// header is the fields of the records header this suite uses.
type header struct {
	Records    int      `json:"surge_records"`
	WarmupUS   int64    `json:"warmup_us"`
	SLO        []slo    `json:"slo"`
	ClosedLoop []string `json:"closed_loop"`
	Start      string   `json:"start"`
}

// slo is one objective: metric pP ≤ bound, or the mean when Percentile is 0.
type slo struct {
	Metric     string  `json:"metric"`
	Percentile float64 `json:"percentile"` // 0: the mean
	BoundUS    float64 `json:"bound_us"`
}

// end is the records end line.
type end struct {
	DurationUS  int64 `json:"duration_us"`
	Interrupted bool  `json:"interrupted"`
	Scheduled   int   `json:"scheduled"`
	Sent        int   `json:"sent"`
	Dropped     int   `json:"dropped"`
	ClientCPUUS int64 `json:"client_cpu_us"`
	ClientCPUs  int   `json:"client_cpus"`
}

// records is one records.jsonl read back.
type records struct {
	Header header
	Recs   []record
	End    *end // nil: no end line
}

// readRecords reads DIR/records.jsonl.
func readRecords(t *testing.T, dir string) *records {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rs records
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for i := 0; sc.Scan(); i++ {
		line := sc.Bytes()
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(line, &probe); err != nil {
			t.Fatalf("%s/records.jsonl:%d: %v", dir, i+1, err)
		}
		var into any
		switch {
		case i == 0:
			into = &rs.Header
		case probe["surge_end"] != nil:
			rs.End = &end{}
			into = rs.End
		default:
			rs.Recs = append(rs.Recs, record{})
			into = &rs.Recs[len(rs.Recs)-1]
		}
		if err := json.Unmarshal(line, into); err != nil {
			t.Fatalf("%s/records.jsonl:%d: %v", dir, i+1, err)
		}
		if r, ok := into.(*record); ok && r.ITLTail != nil {
			for _, e := range r.ITLTail.Gaps {
				for range e[1] {
					r.ITLUS = append(r.ITLUS, e[0])
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rs.Header.Records != 1 && rs.Header.Records != 2 {
		t.Fatalf("%s/records.jsonl: header %+v is not a records header", dir, rs.Header)
	}
	return &rs
}

// surge runs the command line in this process and returns its exit code
// and output.
func surge(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = cli.Main(ctx, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// mustSurge runs surge and fails the test unless it exits with one of codes.
func mustSurge(t *testing.T, codes []int, args ...string) string {
	t.Helper()
	code, out, errOut := surge(context.Background(), args...)
	for _, c := range codes {
		if code == c {
			return out
		}
	}
	t.Fatalf("surge %s: exit %d, want one of %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, codes, out, errOut)
	return ""
}

// writeSpec writes a spec into dir and returns its path.
func writeSpec(t *testing.T, dir, text string) string {
	t.Helper()
	path := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readJSON decodes DIR/name into v.
func readJSON(t *testing.T, dir, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("%s: %v", filepath.Join(dir, name), err)
	}
}

// readText returns DIR/name.
func readText(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
