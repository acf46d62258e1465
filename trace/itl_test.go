package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRoundGap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want int64
		reason   string
	}{
		{0, 0, "zero"},
		{-5, -5, "a negative gap is kept"},
		{1023, 1023, "exact below 1,024 µs"},
		{1024, 1024, "the first rounded value is exact"},
		{2047, 2048, "11 bits round to 10, a half up"},
		{2046, 2046, "an even value keeps"},
		{123456, 123520, "to the nearest multiple of 128, a half up"},
		{1 << 40, 1 << 40, "a power of two keeps"},
	}
	for _, tt := range tests {
		if got := RoundGap(tt.in); got != tt.want {
			t.Errorf("%s: RoundGap(%d) = %d, want %d", tt.reason, tt.in, got, tt.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		v := r.Int64N(1 << 40)
		if got := RoundGap(v); float64(abs64(got-v)) > float64(v)/1024 {
			t.Fatalf("RoundGap(%d) = %d: more than 0.1%% off", v, got)
		}
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// TestAddGapBounded adds a million gaps of a stream of tiny events and
// bounds the record's size in bytes: the first MaxITLGaps gaps are kept
// one by one, the rest counted, with the count and the sum exact.
func TestAddGapBounded(t *testing.T) {
	t.Parallel()
	var rec Record
	r := rand.New(rand.NewPCG(3, 4))
	const n = 1_000_000
	var sum int64
	for range n {
		g := r.Int64N(50) // most tiny events come in the same read: 0 to 50 µs
		if r.IntN(1000) == 0 {
			g = r.Int64N(2_000_000) // and now and then a stall
		}
		sum += g
		rec.AddGap(g)
	}
	if len(rec.ITLUS) != MaxITLGaps || rec.Gaps() != n || rec.GapSumUS() != sum {
		t.Fatalf("%d gaps kept, %d in all, sum %d; want %d, %d, %d", len(rec.ITLUS), rec.Gaps(), rec.GapSumUS(), MaxITLGaps, n, sum)
	}
	b, err := json.Marshal(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 256<<10 {
		t.Errorf("a record of a million gaps is %d KiB as JSON, want under 256 KiB", len(b)>>10)
	}
	var total int64
	prev := int64(-1 << 62)
	for i, e := range rec.ITLTail.Gaps {
		if e[0] <= prev || e[1] <= 0 {
			t.Fatalf("tail pair %d %v after %d: want ascending values and positive counts", i, e, prev)
		}
		prev, total = e[0], total+e[1]
	}
	if total != rec.ITLTail.N {
		t.Errorf("tail counts sum to %d, want N %d", total, rec.ITLTail.N)
	}
}

// TestReadRecordsOldITL reads a version 1 records file whose record keeps
// every gap in itl_us: it is compacted to what a new record holds, and the
// same records read back from version 2 are the same.
func TestReadRecordsOldITL(t *testing.T) {
	t.Parallel()
	const n = MaxITLGaps + 5000
	gaps := make([]int64, n)
	var want Record
	for i := range gaps {
		gaps[i] = int64(i % 3000)
		want.AddGap(gaps[i])
	}
	itl, _ := json.Marshal(gaps)
	old := `{"surge_records":1,"workload_hash":"sha256:x","seed":1,"target":"http://t","start":"2026-01-01T00:00:00Z"}` + "\n" +
		`{"client":"c","session":0,"turn":0,"intended_us":0,"sent_us":0,"e2e_us":9,"itl_us":` + string(itl) + `,"input_tokens":1,"client_input_tokens":1,"output_tokens":1,"chunks":1}` + "\n"
	rs, err := ReadRecords(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	got := rs.Records[0]
	if !slices.Equal(got.ITLUS, want.ITLUS) || got.ITLTail == nil || got.ITLTail.N != want.ITLTail.N ||
		got.ITLTail.SumUS != want.ITLTail.SumUS || !slices.Equal(got.ITLTail.Gaps, want.ITLTail.Gaps) || cap(got.ITLUS) != MaxITLGaps {
		t.Fatalf("version 1 record read as %d gaps (cap %d) and tail %+v, want the first %d and the rest counted", len(got.ITLUS), cap(got.ITLUS), got.ITLTail, MaxITLGaps)
	}

	var buf bytes.Buffer
	w, err := NewRecordWriter(&buf, RunHeader{Target: "http://t", Start: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&want); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(RunEnd{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), fmt.Sprintf(`{"surge_records":%d,`, RecordsFormat)) {
		t.Fatalf("header %.40q, want version %d", buf.String(), RecordsFormat)
	}
	back, err := ReadRecords(&buf)
	if err != nil {
		t.Fatal(err)
	}
	b := back.Records[0]
	if !slices.Equal(b.ITLUS, want.ITLUS) || b.ITLTail.N != want.ITLTail.N || b.ITLTail.SumUS != want.ITLTail.SumUS || !slices.Equal(b.ITLTail.Gaps, want.ITLTail.Gaps) {
		t.Errorf("version %d round trip changed the gaps", RecordsFormat)
	}
}
