package server

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseFaults(t *testing.T) {
	t.Parallel()
	s := time.Second
	for _, tc := range []struct {
		in     string
		want   Faults
		reason string
	}{
		{"", Faults{}, "empty is no faults"},
		{"status=429:0.1", Faults{Rules: []Fault{{Kind: FaultStatus, Status: 429, Prob: 0.1}}}, "status at a rate"},
		{"status=503@10s-20s", Faults{Rules: []Fault{{Kind: FaultStatus, Status: 503, Prob: 1,
			Window: Window{From: 10 * s, To: 20 * s}}}}, "status in a window, every request"},
		{" reset:5% , broken-sse ", Faults{Rules: []Fault{{Kind: FaultReset, Prob: 0.05},
			{Kind: FaultBrokenSSE, Prob: 1}}}, "percentages and spaces around items"},
		{"stall-headers=3s:0.05@1m-2m/5m", Faults{Rules: []Fault{{Kind: FaultStallHeaders, Stall: 3 * s, Prob: 0.05,
			Window: Window{From: time.Minute, To: 2 * time.Minute, Every: 5 * time.Minute}}}}, "every part"},
		{"stall-stream=500ms@10s-", Faults{Rules: []Fault{{Kind: FaultStallStream, Stall: 500 * time.Millisecond,
			Prob: 1, Window: Window{From: 10 * s}}}}, "open-ended window"},
		{"reset-stream:0.5@0s-10s/1m", Faults{Rules: []Fault{{Kind: FaultResetStream, Prob: 0.5,
			Window: Window{To: 10 * s, Every: time.Minute}}}}, "repeating window"},
		{"retry-after=2s", Faults{RetryAfter: 2 * s}, "retry-after alone"},
		{"retry-after=0", Faults{RetryAfter: -1}, "retry-after 0 sends none"},
		{"restart=5s@30s,restart=1s@1m", Faults{Restarts: []Restart{{At: 30 * s, Down: 5 * s},
			{At: time.Minute, Down: s}}}, "two restarts"},
	} {
		got, err := ParseFaults(tc.in)
		if err != nil {
			t.Errorf("%s: ParseFaults(%q): %v", tc.reason, tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: ParseFaults(%q) = %+v, want %+v", tc.reason, tc.in, got, tc.want)
		}
		back, err := ParseFaults(got.String())
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("%s: %q prints as %q, which parses to %+v, %v", tc.reason, tc.in, got.String(), back, err)
		}
	}
}

func TestParseFaultsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string // want: substrings of the error, ";"-separated
		reason   string
	}{
		{"status=429,,reset", `item 2 "": empty item`, "a doubled comma"},
		{"stauts=429", `item 1 "stauts=429": unknown fault "stauts"`, "a misspelt kind is named"},
		{"status", "status needs a code, e.g. status=429", "status without a code"},
		{"status=200", "not an HTTP error status; want 400–599", "a success code"},
		{"status=abc", `status "abc" is not`, "a non-numeric code"},
		{"reset=3s", "reset takes no argument; write reset:PROB", "an argument where none is taken"},
		{"stall-stream:0.1", "stall-stream needs a pause, e.g. stall-stream=3s", "a stall without its pause"},
		{"stall-headers=3", `"3" is not a duration; write e.g. 500ms`, "a unitless pause"},
		{"stall-headers=0s", "pause must be positive", "a zero pause"},
		{"status=429:1.5", "outside (0, 1]", "a probability above 1"},
		{"status=429:0", "outside (0, 1]", "a zero probability"},
		{"status=429:ten", `probability "ten" is not a number`, "a non-numeric probability"},
		{"status=429@10s-20s:0.5", "the probability goes before the window: status:PROB@10s-20s", "the parts swapped"},
		{"status=429@10s", "needs FROM-TO offsets", "a window without a dash"},
		{"status=429@20s-10s", "ends before it starts", "a reversed window"},
		{"status=429@10s-/1m", "repeats but has no end", "a repeating open window"},
		{"status=429@0s-2m/1m", "longer than its period", "a window longer than its period"},
		{"status=429@-5s-10s", `"" is not a duration`, "a negative start reads as an empty one"},
		{"retry-after=1s,retry-after=2s", `item 2 "retry-after=2s": retry-after given twice`, "retry-after twice"},
		{"retry-after", "retry-after needs a duration", "retry-after without a value"},
		{"restart=5s", "restart needs a downtime and an offset, e.g. restart=5s@30s", "a restart without its offset"},
		{"restart=0s@30s", "downtime must be positive", "a zero downtime"},
		{"restart=10s@30s,restart=5s@35s", "restart=5s@35s starts while restart=10s@30s is still down", "overlapping restarts"},
		{"stall-headers=3s:0.05@1m-/30s", "repeats but has no end", "errors keep the item for context"},
	} {
		_, err := ParseFaults(tc.in)
		if err == nil {
			t.Errorf("%s: ParseFaults(%q) succeeded", tc.reason, tc.in)
			continue
		}
		for _, want := range strings.Split(tc.want, ";") {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: ParseFaults(%q) error %q lacks %q", tc.reason, tc.in, err, want)
			}
		}
	}
}

func TestWindowContains(t *testing.T) {
	t.Parallel()
	s := time.Second
	for _, tc := range []struct {
		w      Window
		t      time.Duration
		want   bool
		reason string
	}{
		{Window{}, 0, true, "the zero window is always open"},
		{Window{From: 10 * s, To: 20 * s}, 10 * s, true, "the start is in"},
		{Window{From: 10 * s, To: 20 * s}, 20 * s, false, "the end is out"},
		{Window{From: 10 * s, To: 20 * s}, 5 * s, false, "before the start"},
		{Window{From: 10 * s}, time.Hour, true, "an open end"},
		{Window{From: 10 * s, To: 20 * s, Every: time.Minute}, 75 * s, true, "the second period: [70 s, 80 s)"},
		{Window{From: 10 * s, To: 20 * s, Every: time.Minute}, 85 * s, false, "between periods"},
		{Window{From: 10 * s, To: 20 * s, Every: time.Minute}, 9 * s, false, "before the first period"},
	} {
		if got := tc.w.Contains(tc.t); got != tc.want {
			t.Errorf("%s: %v.Contains(%v) = %v", tc.reason, tc.w, tc.t, got)
		}
	}
}

// FuzzParseFaults checks that ParseFaults never panics, that what it
// accepts is valid, and that it reads its own String back.
func FuzzParseFaults(f *testing.F) {
	for _, s := range []string{
		"status=429:0.1,status=503@10s-20s,retry-after=2s,stall-headers=3s:0.05,stall-stream=5s:0.05",
		"reset:0.02,reset-stream:2%,broken-sse:0.02@1m-2m/5m,restart=5s@30s",
		"retry-after=0", "status=429@10s-", "restart=1ms@0s", ",", "status=429:0x1p-2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFaults(s)
		if err != nil {
			return
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("ParseFaults(%q) accepted an invalid %+v: %v", s, got, err)
		}
		back, err := ParseFaults(got.String())
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Fatalf("ParseFaults(%q) = %+v prints as %q, which parses to %+v, %v", s, got, got.String(), back, err)
		}
	})
}
