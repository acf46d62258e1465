package sweep

import (
	"math/rand/v2"
	"strings"
	"testing"

	"surge/trace"
)

// queueRecords makes n records one every 10 ms whose TTFT is base plus
// noise plus growth·i: a queue that grows by growth µs per request.
func queueRecords(n int, base, growth float64, seed uint64) []trace.Record {
	r := rand.New(rand.NewPCG(seed, 1))
	recs := make([]trace.Record, n)
	for i := range recs {
		ttft := base*(0.5+r.Float64()) + growth*float64(i)
		recs[i] = trace.Record{IntendedUS: int64(i) * 10_000, SentUS: int64(i) * 10_000, TTFTUS: int64(ttft)}
	}
	r.Shuffle(n, func(i, j int) { recs[i], recs[j] = recs[j], recs[i] }) // finished out of order
	return recs
}

func TestOverloaded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		recs []trace.Record
		want bool
	}{
		{"steady noisy latency is not overloaded", queueRecords(1000, 50_000, 0, 1), false},
		{"a queue growing 1 ms per request is", queueRecords(1000, 50_000, 1000, 2), true},
		// Significant but small: 50 ms to about 70 ms over the run.
		{"a slight significant drift is not unbounded growth", queueRecords(1000, 50_000, 20, 3), false},
		{"too few requests to say", queueRecords(150, 50_000, 5000, 4), false},
	}
	for _, tt := range tests {
		got, why := Overloaded(tt.recs)
		if got != tt.want {
			t.Errorf("%s: overloaded %v (%s), want %v", tt.name, got, why, tt.want)
		}
		if got && !strings.Contains(why, "TTFT grew") {
			t.Errorf("%s: reason %q does not say what grew", tt.name, why)
		}
	}
}

// TestOverloadedIgnoresWarmup checks that warmup and dropped records do
// not count: the growing part here is all warmup.
func TestOverloadedIgnoresWarmup(t *testing.T) {
	t.Parallel()
	recs := queueRecords(1000, 50_000, 1000, 5)
	for i := range recs {
		recs[i].Warmup = true
	}
	recs = append(recs, queueRecords(400, 50_000, 0, 6)...)
	if yes, why := Overloaded(recs); yes {
		t.Fatalf("overloaded by warmup records: %s", why)
	}
}

// TestWatch checks that a Watch stops the run once, when the records it
// has seen become overloaded, and says why.
func TestWatch(t *testing.T) {
	t.Parallel()
	stops := 0
	w := NewWatch(func() { stops++ }, 50)
	recs := queueRecords(1000, 50_000, 1000, 7)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if stops != 1 || w.Stopped() == "" {
		t.Fatalf("stopped %d times (%q), want once with a reason", stops, w.Stopped())
	}
	calm := NewWatch(func() { t.Error("a steady run was stopped") }, 50)
	for _, r := range queueRecords(1000, 50_000, 0, 8) {
		calm.Write(&r)
	}
}
