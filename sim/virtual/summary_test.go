package virtual

import (
	"bytes"
	"testing"

	"surge/trace"
)

// TestSummarize checks that a trace's summary carries the reuse its
// sessions imply, at the block size asked for, beside its counts.
func TestSummarize(t *testing.T) {
	t.Parallel()
	h, ss := pinned(), chats(12, true)
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, block := range []int{16, 64} {
		tr, err := trace.NewReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Summarize(tr, block)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ImpliedReuse(ss, block)
		if sum.Reuse == nil || *sum.Reuse != want || want.Cached == 0 {
			t.Errorf("block %d: reuse %+v, want %+v (not none)", block, sum.Reuse, want)
		}
		if sum.All.Sessions != len(ss) {
			t.Errorf("block %d: %d sessions summarised, want %d", block, sum.All.Sessions, len(ss))
		}
	}
}
