package metrics

import (
	"testing"

	"surge/trace"
)

func TestPopulation(t *testing.T) {
	t.Parallel()
	ok := okRec("a", 0, 1000, 5000)
	warm := ok
	warm.Warmup = true
	faulted := ok
	faulted.Fault = "empty"
	warmFaulted := faulted
	warmFaulted.Warmup = true
	failed := failRec("a", 0, trace.ErrHTTP, 503)
	cancelled := failRec("a", 0, trace.ErrCancelled, 0)
	dropped := trace.Record{Client: "a", ErrorClass: trace.ErrDropped}
	for _, tt := range []struct {
		name string
		r    trace.Record
		in   []Population // every population r belongs to
	}{
		{"ok", ok, []Population{Measured, Sent, Succeeded, Healthy}},
		{"warmup", warm, []Population{Healthy}},
		{"faulted", faulted, []Population{Faulted}},
		{"warmup faulted", warmFaulted, nil},
		{"failed", failed, []Population{Measured, Sent, Failed, Healthy}},
		{"cancelled", cancelled, []Population{Measured, Sent, Failed, Healthy}},
		{"dropped", dropped, []Population{Measured, Dropped, Healthy}},
	} {
		for p := Measured; p <= Faulted; p++ {
			want := false
			for _, q := range tt.in {
				want = want || q == p
			}
			if got := p.Has(&tt.r); got != want {
				t.Errorf("%s: %v.Has = %v, want %v", tt.name, p, got, want)
			}
		}
	}
}

func TestPopulationSelect(t *testing.T) {
	t.Parallel()
	rs := records(nil, okRec("a", 0, 1, 2), trace.Record{Client: "b", Fault: "empty"}, okRec("c", 0, 1, 2))
	got := Succeeded.Records(rs)
	if len(got) != 2 || got[0] != &rs.Records[0] || got[1] != &rs.Records[2] {
		t.Errorf("Succeeded.Records = %v, want the first and third records", got)
	}
	all := []*trace.Record{&rs.Records[0], &rs.Records[1], &rs.Records[2]}
	if got := Faulted.Select(all); len(got) != 1 || got[0].Client != "b" {
		t.Errorf("Faulted.Select = %v, want the second record", got)
	}
}

func TestFromIntended(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name           string
		intended, sent int64
		latency, want  int64
	}{
		{"late send adds its lag", 1000, 1500, 200, 700},
		{"on time", 1000, 1000, 200, 200},
		// A send before its intended instant (clock jitter) must not make
		// latency from the intended send less than from the actual one.
		{"early send clamped", 1000, 990, 200, 200},
	} {
		r := trace.Record{IntendedUS: tt.intended, SentUS: tt.sent}
		if got := FromIntended(&r, tt.latency); got != tt.want {
			t.Errorf("%s: FromIntended = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestIntendedClampedEverywhere checks that the summary's +lag
// distributions and per-request SLO judgement count an early send as
// on time, as the fault report and the slowest-requests table do.
func TestIntendedClampedEverywhere(t *testing.T) {
	t.Parallel()
	r := okRec("a", 10_000, 1000, 5000)
	r.SentUS = r.IntendedUS - 50 // sent 50 µs early by clock jitter
	slos := []trace.SLO{{Metric: "e2e", Percentile: 50, BoundUS: 4999}}
	s := Summarize(records(slos, r), Options{})
	for _, m := range []*Metric{&s.All.Latency.TTFTLag, &s.All.Latency.E2ELag} {
		if m.Min < float64(map[string]int64{"ttft+lag": 1000, "e2e+lag": 5000}[m.Name]) {
			t.Errorf("%s min = %g: below the latency from the actual send", m.Name, m.Min)
		}
	}
	if g := s.All.Goodput; g == nil || g.Requests != 0 {
		t.Errorf("goodput = %+v: an e2e of 5000 µs met a 4999 µs bound by an early send", g)
	}
}
