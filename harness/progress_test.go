package harness

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"surge/driver"
)

// TestScheduleDone: how far through its schedule a run is, by time when
// the schedule has a span, else by sessions taken, with the time left.
func TestScheduleDone(t *testing.T) {
	t.Parallel()
	s := time.Second
	tests := []struct {
		reason string
		p      driver.Progress
		want   string
	}{
		{"by time", driver.Progress{Elapsed: 15 * s, Span: 60 * s, Sessions: 600, Scheduled: 10}, " 25% ETA 45s"},
		{"by sessions when there is no span", driver.Progress{Elapsed: 10 * s, Sessions: 100, Scheduled: 25}, " 25% ETA 30s"},
		{"draining once all is due", driver.Progress{Elapsed: 70 * s, Span: 60 * s, InFlight: 3}, "100% draining"},
		{"nothing known", driver.Progress{Elapsed: s}, ""},
	}
	for _, tt := range tests {
		if got := scheduleDone(tt.p); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.reason, got, tt.want)
		}
	}
}

// TestProgressLog: without a terminal, a run writes a progress line to
// its log every ProgressEvery, with the share of the schedule done.
func TestProgressLog(t *testing.T) {
	t.Parallel()
	srv := openAI(t, []string{"m"}, http.StatusOK)
	w := failing(t, 20)
	for i, s := range w.Sessions {
		s.AtUS = int64(i) * 50_000 // a schedule of 950 ms
	}
	log := &syncLog{}
	_, err := Run(context.Background(), Config{Workload: w, Dir: filepath.Join(t.TempDir(), "run"), Target: srv.URL,
		Bare: true, Log: log, ProgressEvery: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for l := range strings.Lines(log.String()) {
		if strings.Contains(l, "% ") && strings.Contains(l, "sent ") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 {
		t.Errorf("%d progress lines in a run of 950 ms with one every 100 ms, want at least 2:\n%s", len(lines), log.String())
	}
}

// TestProgressLineWidth: a progress line of a ten-minute run at tens of
// requests per second fits 100 columns with its "surge: ".
func TestProgressLineWidth(t *testing.T) {
	t.Parallel()
	p := driver.Progress{Elapsed: 300 * time.Second, Span: 600 * time.Second, Sessions: 60_000, Scheduled: 3_000,
		Sent: 30_000, InFlight: 512, Errors: 1_234, TargetRate: 100, AchievedRate: 99.5, TTFTp50: 1234 * time.Millisecond}
	if line := "surge: " + progressLine(p); len([]rune(line)) > 100 {
		t.Errorf("%d columns, want at most 100: %s", len([]rune(line)), line)
	}
}
