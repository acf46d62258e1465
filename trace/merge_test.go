package trace

import (
	"strings"
	"testing"
	"time"
)

func shardRecords(index, count int, start time.Time, offsets ...int64) *Records {
	rs := &Records{Header: RunHeader{WorkloadHash: "sha256:w", Start: start, Shard: &Shard{Index: index, Count: count}},
		End: &RunEnd{End: start.Add(time.Second), DurationUS: 1_000_000, Scheduled: len(offsets), Sent: len(offsets)}}
	for i, at := range offsets {
		rs.Records = append(rs.Records, Record{Client: "c", Session: 10*index + i, IntendedUS: at, SentUS: at + 5})
	}
	return rs
}

func TestMerge(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	a := shardRecords(0, 3, t0, 0, 100)
	b := shardRecords(2, 3, t0.Add(2*time.Millisecond), 50) // started 2 ms late
	m, warnings, err := Merge([]*Records{b, a}, []string{"b", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Header.Start.Equal(t0) || m.Header.Shard.Count != 3 || len(m.Header.Shard.Merged) != 2 || m.Header.Shard.Merged[1] != 2 {
		t.Errorf("header %+v, shard %+v", m.Header, m.Header.Shard)
	}
	if m.Records[0].IntendedUS != 2050 || m.Records[0].SentUS != 2055 {
		t.Errorf("shard 2's record at %d, want rebased by its 2 ms late start to 2050", m.Records[0].IntendedUS)
	}
	if m.End.Scheduled != 3 || m.End.Sent != 3 || m.End.DurationUS != 1_002_000 {
		t.Errorf("end %+v", m.End)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "shards [1] are missing") {
		t.Errorf("warnings %q", warnings)
	}
	for _, tt := range []struct {
		runs []*Records
		want string
	}{
		{[]*Records{a, shardRecords(0, 3, t0, 1)}, "both shard 0/3"},
		{[]*Records{a, shardRecords(1, 4, t0, 1)}, "one split"},
		{[]*Records{a, {Header: RunHeader{WorkloadHash: "sha256:w"}}}, "whole run"},
		{[]*Records{a, {Header: RunHeader{WorkloadHash: "sha256:other"}}}, "another workload"},
	} {
		if _, _, err := Merge(tt.runs, []string{"x", "y"}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("merge: %v, want an error about %q", err, tt.want)
		}
	}
}
