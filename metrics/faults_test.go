package metrics

import (
	"testing"

	"surge/trace"
)

// TestFaultClasses checks how a run's faulted requests are reported and
// kept out of the healthy figures.
func TestFaultClasses(t *testing.T) {
	t.Parallel()
	rs := &trace.Records{End: &trace.RunEnd{DurationUS: 10_000_000}}
	for i := range 10 {
		rs.Records = append(rs.Records, trace.Record{Client: "c", Session: i, IntendedUS: int64(i) * 100_000, SentUS: int64(i) * 100_000,
			FirstByteUS: 10_000, TTFTUS: 10_000, E2EUS: 50_000, Status: 200})
	}
	for i := range 4 {
		rs.Records = append(rs.Records, trace.Record{Client: "c", Session: 10 + i, Fault: trace.FaultInvalidParams,
			IntendedUS: 50_000, SentUS: 50_000, FirstByteUS: int64(1000 * (i + 1)), E2EUS: int64(1000 * (i + 1)),
			Status: 400, ErrorClass: trace.ErrHTTP, Error: "HTTP 400: max_tokens must be at least 1"})
	}
	s := Summarize(rs, Options{})
	if s.All.Requests != 10 || s.All.Errors.Failed != 0 || s.All.Latency.TTFT.N != 10 {
		t.Errorf("healthy scope: %d requests, %d failed, %d TTFTs; want the 10 healthy ones", s.All.Requests, s.All.Errors.Failed, s.All.Latency.TTFT.N)
	}
	if s.Faults == nil || len(s.Faults.Classes) != 1 {
		t.Fatalf("faults %+v", s.Faults)
	}
	fc := s.Faults.Classes[0]
	if fc.Kind != trace.FaultInvalidParams || fc.Requests != 4 || fc.OK != 0 || fc.ByStatus[400] != 4 || fc.ByClass[trace.ErrHTTP] != 4 ||
		fc.AnswerP50US != 2000 || fc.AnswerP99US != 4000 || len(fc.Messages) != 1 || fc.Messages[0].Count != 4 {
		t.Errorf("fault class %+v", fc)
	}
	if Summarize(&trace.Records{Records: rs.Records[:10]}, Options{}).Faults != nil {
		t.Error("a run without faults has a fault report")
	}
}

// TestFaultImpact follows healthy TTFT through a burst: 20 ms before it,
// 200 ms during it and for 2 s after it, then 21 ms (within 10% of the
// baseline): recovery comes 2 s after the burst's end.
func TestFaultImpact(t *testing.T) {
	t.Parallel()
	burst := trace.FaultWindow{Kind: trace.FaultBurst, Client: "c", AtUS: 10_000_000, ForUS: 5_000_000, Factor: 4}
	rs := &trace.Records{Header: trace.RunHeader{FaultWindows: []trace.FaultWindow{burst}}, End: &trace.RunEnd{DurationUS: 30_000_000}}
	for i := range 300 {
		at := int64(i) * 100_000 // one request every 100 ms for 30 s
		ttft := int64(20_000)
		switch {
		case at >= 10_000_000 && at < 17_000_000:
			ttft = 200_000
		case at >= 17_000_000:
			ttft = 21_000
		}
		rs.Records = append(rs.Records, trace.Record{Client: "c", Session: i, IntendedUS: at, SentUS: at, TTFTUS: ttft, E2EUS: ttft + 1000, Status: 200})
	}
	f := Summarize(rs, Options{}).Faults
	if f == nil || len(f.Windows) != 1 {
		t.Fatalf("faults %+v", f)
	}
	w := f.Windows[0]
	// Outside the burst: 100 requests at 20 ms, 20 at 200 ms (15–17 s),
	// 130 at 21 ms.
	if w.BaselineP50US != 20_000 || w.DuringP50US != 200_000 || w.OutsideP50US != 21_000 || !w.Recovered || w.RecoveryUS != 2_000_000 {
		t.Errorf("impact %+v: want baseline 20 ms, during 200 ms, outside 21 ms, recovery 2 s after the burst", w)
	}
}

// TestStormCount checks that each stormed request counts for the first
// storm after its send, though its record ends before the storm (at its
// last byte).
func TestStormCount(t *testing.T) {
	t.Parallel()
	storms := []trace.FaultWindow{{Kind: trace.FaultStorm, Client: "c", AtUS: 1_000_000, Fraction: 0.5}, {Kind: trace.FaultStorm, Client: "c", AtUS: 3_000_000, Fraction: 0.5}}
	rs := &trace.Records{Header: trace.RunHeader{FaultWindows: storms}}
	for i, sent := range []int64{500_000, 900_000, 2_000_000} {
		rs.Records = append(rs.Records, trace.Record{Client: "c", Session: i, Fault: trace.FaultStorm, IntendedUS: sent, SentUS: sent,
			E2EUS: 50_000, ErrorClass: trace.ErrCancelled})
	}
	rs.Records = append(rs.Records, trace.Record{Client: "c", Session: 9, IntendedUS: 0, SentUS: 0, TTFTUS: 1000, E2EUS: 4_000_000})
	w := Summarize(rs, Options{}).Faults.Windows
	if len(w) != 2 || w[0].Faulted != 2 || w[1].Faulted != 1 {
		t.Fatalf("windows %+v: want 2 cancelled by the first storm, 1 by the second", w)
	}
}

// TestStormCountByIntended checks that a stormed request sent after the
// storm's instant (late on a loaded machine, and struck by a storm that
// fired late) counts for the storm it was meant to be in flight at.
func TestStormCountByIntended(t *testing.T) {
	t.Parallel()
	storms := []trace.FaultWindow{{Kind: trace.FaultStorm, Client: "c", AtUS: 1_000_000, Fraction: 0.5}, {Kind: trace.FaultStorm, Client: "c", AtUS: 3_000_000, Fraction: 0.5}}
	rs := &trace.Records{Header: trace.RunHeader{FaultWindows: storms}}
	for i, at := range [][2]int64{{900_000, 900_000}, {990_000, 1_004_000}, {2_000_000, 2_000_000}} {
		rs.Records = append(rs.Records, trace.Record{Client: "c", Session: i, Fault: trace.FaultStorm, IntendedUS: at[0], SentUS: at[1],
			E2EUS: 1000, ErrorClass: trace.ErrCancelled})
	}
	w := Summarize(rs, Options{}).Faults.Windows
	if len(w) != 2 || w[0].Faulted != 2 || w[1].Faulted != 1 {
		t.Fatalf("windows %+v: want 2 cancelled by the first storm (one sent after it struck), 1 by the second", w)
	}
}
