package harness

import (
	"context"
	"os"
	"testing"
	"testing/fstest"

	"surge/trace/importers"
)

func TestDataset(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../trace/importers/testdata/burstgpt.csv")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"b.csv": {Data: data}}
	all, err := Dataset(context.Background(), fsys, []string{"b.csv"}, DatasetOptions{Import: importers.ImportOptions{Format: importers.FormatBurstGPT, Model: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		opts   DatasetOptions
		n      int
		lastUS int64 // the last kept session's offset; -1: as imported
	}{
		{"no options: every session as recorded", DatasetOptions{}, len(all.Sessions), -1},
		{"the first sessions, as recorded", DatasetOptions{Sessions: 5}, 5, -1},
		{"five sessions at 2/s: four gaps in 2 s", DatasetOptions{Sessions: 5, Rate: 2}, 5, 2_000_000},
	}
	for _, tt := range tests {
		tt.opts.Import = importers.ImportOptions{Format: importers.FormatBurstGPT, Model: "m"}
		w, err := Dataset(context.Background(), fsys, []string{"b.csv"}, tt.opts)
		if err != nil {
			t.Errorf("%s: %v", tt.reason, err)
			continue
		}
		if len(w.Sessions) != tt.n || w.Sessions[0].AtUS != 0 || w.SpecPath != "b.csv" {
			t.Errorf("%s: %d sessions from %d µs of %s, want %d from 0 of b.csv", tt.reason, len(w.Sessions), w.Sessions[0].AtUS, w.SpecPath, tt.n)
			continue
		}
		want := all.Sessions[tt.n-1].AtUS
		if tt.lastUS >= 0 {
			want = tt.lastUS
		}
		if got := w.Sessions[tt.n-1].AtUS; got != want {
			t.Errorf("%s: last session at %d µs, want %d", tt.reason, got, want)
		}
		again, err := hashSessions(w.Header, w.Sessions)
		if err != nil || again != w.Hash || (tt.n < len(all.Sessions)) == (w.Hash == all.Hash) {
			t.Errorf("%s: hash %s (of the sessions: %s, %v); of the whole import %s", tt.reason, w.Hash, again, err, all.Hash)
		}
	}
}
