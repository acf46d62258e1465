package cli

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"surge/metrics/compare"
	"surge/trace"
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

// TestShards runs a workload as four shard processes against one built-in
// engine, all starting at one instant, and merges them: every session of the
// workload was sent exactly once, each at its place in the unsharded
// schedule. Against a run of the whole workload in one process, the
// merged TTFTs pass a rank test and the send rates agree within 2% (both
// timing figures, asserted with SURGE_STRICT_TIMING). A report of some of
// the shards says which are missing.
func TestShards(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "s.yaml", shardSpec)
	url := startEngine(t)
	bin := surgeBinary(t) // before the start instant is chosen: building takes a while
	startAt := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
	out := filepath.Join(tmp, "runs")
	done := make(chan string, 4)
	for i := range 4 {
		go func() {
			cmd := exec.Command(bin, "run", spec, "--target", url, "--shard", fmt.Sprintf("%d/4", i), "--start-at", startAt,
				"--no-scrape", "-o", filepath.Join(out, fmt.Sprintf("shard-%d", i)))
			if b, err := cmd.CombinedOutput(); err != nil {
				done <- fmt.Sprintf("%v\n%s", err, b)
				return
			}
			done <- ""
		}()
	}
	for range 4 {
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
	for _, s := range in.Sessions {
		at[s.Index] = s.AtUS
	}
	seen := map[int]int{}
	for _, r := range rs.Records {
		seen[r.Session]++
		if r.IntendedUS != at[r.Session] {
			t.Errorf("session %d intended at %d µs, the whole schedule says %d", r.Session, r.IntendedUS, at[r.Session])
		}
	}
	if len(seen) != len(in.Sessions) || len(rs.Records) != len(in.Sessions) {
		t.Errorf("%d records of %d sessions, want each of the %d sessions once", len(rs.Records), len(seen), len(in.Sessions))
	}
	if sh := rs.Header.Shard; sh == nil || len(sh.Merged) != 4 {
		t.Errorf("merged shard set %+v", sh)
	}
	salts := map[string]bool{}
	for i := range 4 {
		salts[readRun(t, filepath.Join(out, fmt.Sprintf("shard-%d", i))).Header.Salt] = true
	}
	if len(salts) != 1 {
		t.Errorf("the shards salted with %d nonces, want one for all", len(salts))
	}
	// The whole run is a process of its own too, so that the two sides
	// differ only in sharding, not in sharing the engine's process.
	whole := filepath.Join(tmp, "whole")
	if b, err := exec.Command(bin, "run", spec, "--target", url, "--no-scrape", "-o", whole).CombinedOutput(); err != nil {
		t.Fatalf("the whole run: %v\n%s", err, b)
	}
	compareShards(t, rs, readRun(t, whole))
	code, o, e := run(t, "report", filepath.Join(out, "shard-0"), filepath.Join(out, "shard-2"))
	if code != exitOK || !strings.Contains(e, "shards [1 3] are missing") || !strings.Contains(o, "merged 2 of 4 shards") {
		t.Errorf("report of two shards: exit %d\n%s\n%s", code, o, e)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--shard", "3/3"}, exitUsage, "0 ≤ I < N"},
		{[]string{"--start-at", "noon"}, exitUsage, "RFC 3339"},
		{[]string{"--start-at", "2000-01-01T00:00:00Z"}, exitUsage, "in the past"},
	} {
		code, _, e := run(t, append([]string{"run", spec, "--target", url, "-o", filepath.Join(tmp, "bad")}, tt.args...)...)
		if code != tt.code || !strings.Contains(e, tt.want) {
			t.Errorf("run %v: exit %d, %s; want exit %d about %q", tt.args, code, e, tt.code, tt.want)
		}
	}
}

// compareShards sets the merged shards' TTFTs and send rate beside the
// whole run's.
func compareShards(t *testing.T, shards, whole *trace.Records) {
	t.Helper()
	ttfts := func(rs *trace.Records) []float64 {
		var v []float64
		for _, r := range rs.Records {
			if r.OK() {
				v = append(v, float64(r.TTFTUS))
			}
		}
		return v
	}
	_, p, ok := compare.MannWhitney(ttfts(shards), ttfts(whole))
	rs, rw := sendRate(shards), sendRate(whole)
	t.Logf("TTFT rank test p = %.3f (medians %.0f µs sharded, %.0f µs whole); send rate %.2f/s sharded, %.2f/s whole",
		p, median(ttfts(shards)), median(ttfts(whole)), rs, rw)
	if os.Getenv("SURGE_STRICT_TIMING") == "" {
		return
	}
	if !ok || p < 0.001 {
		t.Errorf("merged shards' TTFTs differ from the whole run's: rank test p = %.4f", p)
	}
	if math.Abs(rs/rw-1) > 0.02 {
		t.Errorf("send rate %.3f/s sharded, %.3f/s whole: more than 2%% apart", rs, rw)
	}
}

// sendRate is (n−1)/(last − first send) over the records.
func sendRate(rs *trace.Records) float64 {
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, r := range rs.Records {
		lo, hi = min(lo, r.SentUS), max(hi, r.SentUS)
	}
	return float64(len(rs.Records)-1) / (float64(hi-lo) / 1e6)
}
