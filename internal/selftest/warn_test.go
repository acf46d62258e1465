package selftest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// measured is a fabricated self-test: 10,000 streamed req/s at best, with
// 640,000 token events/s.
var measured = Result{Version: "v", CPUs: runtime.NumCPU(), Tokens: 64, At: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	Points: []Point{
		{Concurrency: 64, RequestsPerS: 10_000, TokenEventsPerS: 640_000},
		{Concurrency: 512, RequestsPerS: 8_000, TokenEventsPerS: 512_000},
	}}

func TestWarn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason      string
		rate        float64
		concurrency int
		r           Result
		want        []string // substrings of the warning; nil: no warning
	}{
		{"far below the ceiling", 100, 10, measured, nil},
		{"exactly half the rate ceiling is still fine", 5_000, 0, measured, nil},
		{"above half the best point's rate", 5_001, 0, measured, []string{"5001 req/s", "10000 streamed req/s"}},
		{"more than the ceiling itself", 25_000, 0, measured, []string{"250%"}},
		{"3,200 streams need 320,000 events/s: exactly half", 0, 3_200, measured, nil},
		{"4,000 streams need 400,000 events/s", 0, 4_000, measured, []string{"4000 concurrent streams", "400000 token events/s", "640000"}},
		{"both at once are both named", 9_000, 10_000, measured, []string{"9000 req/s", "10000 concurrent streams"}},
		{"no self-test, no warning", 1e9, 1e9, Result{}, nil},
	}
	for _, tt := range tests {
		got := Warn(tt.rate, tt.concurrency, tt.r)
		if tt.want == nil && got != "" {
			t.Errorf("%s: warned %q", tt.reason, got)
		}
		if tt.want != nil && got == "" {
			t.Errorf("%s: no warning", tt.reason)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: warning %q lacks %q", tt.reason, got, w)
			}
		}
	}
}

func TestCeiling(t *testing.T) {
	t.Parallel()
	if req, ev := measured.Ceiling(); req != 10_000 || ev != 640_000 {
		t.Errorf("ceiling %.0f req/s %.0f events/s, want the best point's 10000 and 640000", req, ev)
	}
	if req, ev := (Result{}).Ceiling(); req != 0 || ev != 0 {
		t.Errorf("ceiling of nothing: %v %v, want zeros", req, ev)
	}
}

func TestCurrent(t *testing.T) {
	t.Parallel()
	other := measured
	other.CPUs = runtime.NumCPU() + 1
	empty := measured
	empty.Points = nil
	tests := []struct {
		reason  string
		r       Result
		version string
		want    bool
	}{
		{"same build, same machine", measured, "v", true},
		{"another build", measured, "w", false},
		{"another number of CPUs", other, "v", false},
		{"nothing measured", empty, "v", false},
	}
	for _, tt := range tests {
		if got := tt.r.Current(tt.version); got != tt.want {
			t.Errorf("%s: Current = %v, want %v", tt.reason, got, tt.want)
		}
	}
}
