package harness

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/trace"
)

// TestAborter: from the MinAbortRequests'th finished request on, a run
// stops once more than the rate of its requests failed; dropped
// requests and faults sent on purpose do not count.
func TestAborter(t *testing.T) {
	t.Parallel()
	ok, bad := trace.Record{}, trace.Record{ErrorClass: trace.ErrHTTP}
	dropped, fault := trace.Record{ErrorClass: trace.ErrDropped}, trace.Record{ErrorClass: trace.ErrHTTP, Fault: "empty"}
	repeat := func(n int, r trace.Record) []trace.Record {
		out := make([]trace.Record, n)
		for i := range out {
			out[i] = r
		}
		return out
	}
	cat := func(parts ...[]trace.Record) []trace.Record {
		var out []trace.Record
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		reason string
		max    float64
		recs   []trace.Record
		want   string // in the reason; "" for no abort
	}{
		{"too few to judge", 0.5, repeat(MinAbortRequests-1, bad), ""},
		{"judged at the twentieth", 0.5, repeat(MinAbortRequests, bad), "20 of the first 20 requests failed"},
		{"half is not more than half", 0.5, cat(repeat(10, ok), repeat(10, bad)), ""},
		{"one more is", 0.5, cat(repeat(10, ok), repeat(11, bad)), "11 of the first 21"},
		{"dropped and faults are not counted", 0.5, cat(repeat(50, dropped), repeat(50, fault), repeat(5, bad)), ""},
		{"a rate of one never stops", 1, repeat(100, bad), ""},
	}
	for _, tt := range tests {
		cancelled := false
		a := &aborter{max: tt.max, cancel: func(error) { cancelled = true }}
		for i := range tt.recs {
			if err := a.Write(&tt.recs[i]); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(a.reason, tt.want) || (tt.want == "") != (a.reason == "") || cancelled != (tt.want != "") {
			t.Errorf("%s: reason %q, cancelled %v; want %q", tt.reason, a.reason, cancelled, tt.want)
		}
	}
}

// TestRunAborts: a run whose first requests fail past MaxErrorRate
// stops long before its schedule ends; its records end line and report
// say it aborted, and its Verdict is an AbortedError.
func TestRunAborts(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	const n = 1000
	w := failing(t, n)
	for i, s := range w.Sessions {
		s.AtUS = int64(i) * 10_000 // 10 s of schedule
	}
	dir := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), Config{Workload: w, Dir: dir, Target: srv.URL, NoPreflight: true,
		MaxErrorRate: 0.5, Bare: true}) // Bare: no trace, whose hash the offsets changed
	if err != nil {
		t.Fatal(err)
	}
	if !as[AbortedError](res.Verdict) || !res.End.Interrupted || res.End.Sent >= n {
		t.Fatalf("verdict %v, end %+v: want an abort before the schedule ended", res.Verdict, res.End)
	}
	records, err := os.ReadFile(recordsPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(records), `"aborted":"`) {
		t.Errorf("the records' end line does not say the run aborted")
	}
	if !strings.Contains(res.Report, "aborted after") {
		t.Errorf("the report does not say the run aborted:\n%s", res.Report)
	}
}
