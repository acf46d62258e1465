package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const shardSpec = `version: 1
seed: 21
requests: 60
clients:
  - name: chat
    model: Llama-3.1-8B
    rate: 30/s
    input: {dist: uniform, min: 50, max: 500}
    output: 8
`

// TestShards runs a workload as three shards against the built-in engine,
// all starting at one instant, and merges them: every session of the
// workload was sent exactly once, each at its place in the unsharded
// schedule, and the merged report is the whole run's. A report of two of
// the three shards says one is missing.
func TestShards(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "s.yaml", shardSpec)
	url := startEngine(t)
	startAt := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
	out := filepath.Join(tmp, "runs")
	done := make(chan string, 3)
	for i := range 3 {
		go func() {
			code, o, e := run(t, "run", spec, "--target", url, "--shard", []string{"0/3", "1/3", "2/3"}[i], "--start-at", startAt,
				"-o", filepath.Join(out, []string{"shard-0", "shard-1", "shard-2"}[i]))
			if code != exitOK {
				done <- o + e
				return
			}
			done <- ""
		}()
	}
	for range 3 {
		if msg := <-done; msg != "" {
			t.Fatalf("a shard failed:\n%s", msg)
		}
	}
	in, err := readTraceFile(filepath.Join(out, "shard-0", "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := readRecordFiles(&strings.Builder{}, []string{out})
	if err != nil {
		t.Fatal(err)
	}
	at := map[int]int64{}
	for _, s := range in.sessions {
		at[s.Index] = s.AtUS
	}
	seen := map[int]int{}
	for _, r := range rs.Records {
		seen[r.Session]++
		if r.IntendedUS != at[r.Session] {
			t.Errorf("session %d intended at %d µs, the whole schedule says %d", r.Session, r.IntendedUS, at[r.Session])
		}
	}
	if len(seen) != len(in.sessions) || len(rs.Records) != len(in.sessions) {
		t.Errorf("%d records of %d sessions, want each of the %d sessions once", len(rs.Records), len(seen), len(in.sessions))
	}
	if sh := rs.Header.Shard; sh == nil || len(sh.Merged) != 3 {
		t.Errorf("merged shard set %+v", sh)
	}
	code, o, e := run(t, "report", filepath.Join(out, "shard-0"), filepath.Join(out, "shard-2"))
	if code != exitOK || !strings.Contains(e, "shards [1] are missing") || !strings.Contains(o, "merged 2 of 3 shards") {
		t.Errorf("report of two shards: exit %d\n%s\n%s", code, o, e)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--shard", "3/3"}, exitUsage, "0 ≤ I < N"},
		{[]string{"--start-at", "noon"}, exitUsage, "RFC 3339"},
		{[]string{"--start-at", "2000-01-01T00:00:00Z"}, exitFailure, "in the past"},
	} {
		code, _, e := run(t, append([]string{"run", spec, "--target", url, "-o", filepath.Join(tmp, "bad")}, tt.args...)...)
		if code != tt.code || !strings.Contains(e, tt.want) {
			t.Errorf("run %v: exit %d, %s; want exit %d about %q", tt.args, code, e, tt.code, tt.want)
		}
	}
}
