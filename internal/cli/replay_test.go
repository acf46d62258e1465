package cli

import (
	"path/filepath"
	"testing"
)

// TestReplayImported imports 6 seconds of the Mooncake conversation trace
// (lengths and 512-token content blocks, no text) and replays it with
// surge run against the built-in engine: every request succeeds, the
// server counts exactly the prompt surge meant to send (the trace's length
// plus the salt), and requests whose blocks the trace says are shared
// find them in the engine's prefix cache.
func TestReplayImported(t *testing.T) {
	t.Parallel()
	src := "../../../shared/traces/mooncake/conversation_trace.jsonl"
	if matches, _ := filepath.Glob(src); len(matches) == 0 {
		t.Skip("no Mooncake trace")
	}
	dir := t.TempDir()
	tr := filepath.Join(dir, "mc.jsonl")
	if code, _, e := run(t, "import", src, "--window", "0-6s", "--model", "qwen2.5-7b-1m", "-o", tr); code != exitOK {
		t.Fatalf("import: %s", e)
	}
	out := filepath.Join(dir, "run")
	code, stdout, stderr := run(t, "run", tr, "-o", out)
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s\n%s", code, stderr, stdout)
	}
	rs := readRun(t, out)
	cached := 0
	for _, r := range rs.Records {
		if !r.OK() || r.ServerInputTokens != r.InputTokens || r.ClientInputTokens != r.InputTokens {
			t.Fatalf("record %+v: want success and the server counting the prompt sent", r)
		}
		cached += r.CachedTokens
	}
	if len(rs.Records) < 8 || cached == 0 || rs.Header.PrefixReuse.Cached == 0 {
		t.Errorf("%d records, %d cached tokens (implied %d): want the trace's shared blocks cached", len(rs.Records), cached, rs.Header.PrefixReuse.Cached)
	}
}
