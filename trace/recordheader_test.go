package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewriteHeader: a header rewritten into the room left for it reads
// back as the new header, the records and end line untouched; one that
// does not fit is refused and the file left as it was.
func TestRewriteHeader(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "records.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rw, err := NewRecordWriterRoom(f, RunHeader{Tool: "surge", Target: "sim://x"}, 160)
	if err != nil {
		t.Fatal(err)
	}
	if err := rw.Write(&Record{Client: "c", E2EUS: 5, ITLUS: Gaps{1, 2}}); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(RunEnd{DurationUS: 9, Scheduled: 1, Sent: 1}); err != nil {
		t.Fatal(err)
	}
	want := RunHeader{Tool: "surge", Target: "sim://x", WorkloadHash: "sha256:abc", PrefixReuse: &Reuse{BlockTokens: 16, Prompt: 100, Cached: 48}}
	if err := rw.RewriteHeader(f, want); err != nil {
		t.Fatal(err)
	}
	long := want
	long.WorkloadHash = strings.Repeat("x", 200)
	if err := rw.RewriteHeader(f, long); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Errorf("a header 200 bytes longer: error %v, want it refused", err)
	}
	back, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	rs, err := ReadRecords(back)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Header.WorkloadHash != want.WorkloadHash || rs.Header.PrefixReuse == nil || *rs.Header.PrefixReuse != *want.PrefixReuse || rs.Header.Target != "sim://x" {
		t.Errorf("header read back %+v, want %+v", rs.Header, want)
	}
	if len(rs.Records) != 1 || rs.Records[0].E2EUS != 5 || len(rs.Records[0].ITLUS) != 2 || rs.End == nil || rs.End.DurationUS != 9 {
		t.Errorf("records %+v, end %+v; want the one record and the end line as written", rs.Records, rs.End)
	}
}
