package virtual

import (
	"context"
	"reflect"
	"testing"

	"surge/trace"
)

// runPlain runs ss as Run does, or as the plain reference run when plain
// is set, and returns the records.
func runPlain(tb testing.TB, cfg Config, h trace.Header, ss []*trace.Session, plain bool) []trace.Record {
	tb.Helper()
	var c collect
	rn, scheduled, err := newRunner(cfg, h, ss, &c)
	if err != nil {
		tb.Fatal(err)
	}
	rn.plain = plain
	if _, err := rn.run(context.Background(), scheduled); err != nil {
		tb.Fatal(err)
	}
	return c.recs
}

// TestSharingMatchesPlainOnWEKA replays imported WEKA conversations with
// each turn's hashes taken from its source's and its content blocks
// hashed as one message, and as the plain reference does it, and checks
// that the records are the same, record for record, and that the prefix
// cache mattered (most prompt tokens were cached).
func TestSharingMatchesPlainOnWEKA(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of requests of 100k tokens and more: skipped in -short")
	}
	t.Parallel()
	odd := qwen1M(t) // KV blocks of 24 tokens, which the 64-token blocks straddle
	odd.Engine.NumBlocks = odd.Engine.NumBlocks * odd.Engine.BlockSize / 24
	odd.Engine.BlockSize = 24
	odd.Engine.MaxModelLen = min(odd.Engine.MaxModelLen, odd.Engine.NumBlocks*24)
	files := wekaJSON(t)
	tests := []struct {
		reason string
		cfg    Config
		conc   int
		ss     []*trace.Session
	}{
		{"the 17 conversation files, four at a time", qwen1M(t), 4, files},
		{"the files with KV blocks of 24 tokens", odd, 4, files},
		{"every 40th conversation of the CSV from the 7th, with sub-agent streams forked from the main one", qwen1M(t), 3, wekaCSV(t, 40, 7)},
	}
	for _, tt := range tests {
		got := runPlain(t, tt.cfg, header(tt.conc), tt.ss, false)
		want := runPlain(t, tt.cfg, header(tt.conc), tt.ss, true)
		if len(got) != len(want) {
			t.Fatalf("%s: %d records, the plain run %d", tt.reason, len(got), len(want))
		}
		var cached, prompt int64
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: record %d\n%+v\nthe plain run's\n%+v", tt.reason, i, got[i], want[i])
			}
			cached, prompt = cached+int64(got[i].CachedTokens), prompt+int64(got[i].ServerInputTokens)
		}
		t.Logf("%s: %d records, %.3f of prompt tokens cached", tt.reason, len(got), float64(cached)/float64(prompt))
		if cached < prompt/2 {
			t.Errorf("%s: %d of %d prompt tokens cached, want most", tt.reason, cached, prompt)
		}
	}
}
