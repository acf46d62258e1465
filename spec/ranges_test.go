package spec

import (
	"strings"
	"testing"

	"surge/trace"
)

// TestRangeRefusals checks that values no run can reach are refused at
// their position: validate said ok to 1e18 requests, 1e9/s and a
// 100-year duration.
func TestRangeRefusals(t *testing.T) {
	t.Parallel()
	const client = "clients:\n  - {name: a, model: m, rate: 5/s, input: 10, output: 10}\n"
	tests := []struct {
		reason, src string
		w           want
	}{
		{"1e18 requests", "version: 1\nrequests: 1e18\n" + client, want{"2:11: requests", "is more than 1000000000 (spec.MaxRequests)"}},
		{"a rate of 1e9/s", "version: 1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 1e9/s, input: 10, output: 10}\n",
			want{"4:31: clients[0].rate", "1e+09/s is above a million a second (spec.MaxRate)"}},
		{"a top-level rate of 1e9/s", "version: 1\nduration: 1m\nrate: 1G/s\nclients:\n  - {name: a, model: m, input: 10, output: 10}\n",
			want{"3:7: rate", "(spec.MaxRate)"}},
		{"a 100-year duration", "version: 1\nduration: 876000h\n" + client, want{"2:11: duration", "876000h is longer than a year (spec.MaxDuration)"}},
		{"a stage 31,700 years in", "version: 1\nduration: 1m\nclients:\n  - name: a\n    model: m\n    input: 10\n    output: 10\n    arrival: {stages: [{at: 0s, rate: 1/s}, {at: 876000h, rate: 2/s}]}\n",
			want{"8:50: clients[0].arrival.stages[1].at", "longer than a year"}},
		{"a billion in flight", "version: 1\nrequests: 10\nclients:\n  - {name: a, model: m, concurrency: 1G, input: 10, output: 10}\n",
			want{"4:38: clients[0].concurrency", "concurrency 1000000000 is more than 1000000 (spec.MaxConcurrency)"}},
		{"a pool of a billion system prompts", "version: 1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 1/s, input: 10, output: 10, prefix: {pool: 1G, length: 10}}\n",
			want{"4:74: clients[0].prefix.pool", "pool 1000000000 is more than 1000000 (spec.MaxPool)"}},
		{"zero requests", "version: 1\nrequests: 0\n" + client, want{"2:11: requests", "requests must be at least 1"}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, tt.src, tt.w)
	}
}

// TestRangeWarnings checks that legal but absurd values are accepted with
// a warning at their position, and that ordinary ones draw none.
func TestRangeWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason, src, want string // want "" for no warning
	}{
		{"an ordinary spec", "version: 1\nduration: 10m\nclients:\n  - {name: a, model: m, rate: 50/s, input: 10, output: 10}\n", ""},
		{"a run of 100 days", "version: 1\nduration: 2400h\nclients:\n  - {name: a, model: m, rate: 5/s, input: 10, output: 10}\n", "t.yaml:2:11: duration: a run of 2400h, over a month"},
		{"fifty million requests", "version: 1\nrequests: 50M\nclients:\n  - {name: a, model: m, rate: 5000/s, input: 10, output: 10}\n", "t.yaml:2:11: requests: requests 50000000 is more than 10000000"},
		{"requests at a rate that takes years", "version: 1\nrequests: 1000\nclients:\n  - {name: a, model: m, rate: 1/d, input: 10, output: 10}\n", "t.yaml:2:11: requests: 1000 requests at 1.16e-05/s take more than a year"},
		{"requests at a rate that takes weeks", "version: 1\nrequests: 100\nclients:\n  - {name: a, model: m, rate: 2/d, input: 10, output: 10}\n", "t.yaml:2:11: requests: 100 requests at 2.31e-05/s take about 1200h, over a month"},
		{"50,000 a second", "version: 1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 50k/s, input: 10, output: 10}\n", "t.yaml:4:31: clients[0].rate: 5e+04/s is more than one surge process sends"},
		{"50,000 in flight", "version: 1\nrequests: 10\nclients:\n  - {name: a, model: m, concurrency: 50k, input: 10, output: 10}\n", "clients[0].concurrency: concurrency 50000 is more than 10000"},
	}
	for _, tt := range tests {
		s, err := Parse("t.yaml", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: refused: %v", tt.reason, err)
			continue
		}
		got := s.Warnings.Error()
		if (tt.want == "") != (len(s.Warnings) == 0) || !strings.Contains(got, tt.want) {
			t.Errorf("%s: warnings %q, want %q", tt.reason, got, tt.want)
		}
	}
}

// TestMaxDurationIsTraceMaxOffset checks that a spec's longest duration is
// the longest offset a trace holds, so that gen never writes a trace its
// reader refuses.
func TestMaxDurationIsTraceMaxOffset(t *testing.T) {
	t.Parallel()
	if MaxDuration != trace.MaxOffset || MaxConcurrency != trace.MaxConcurrency || maxFaultTokens != trace.MaxTokens {
		t.Errorf("spec bounds %v, %d, %d differ from trace's %v, %d, %d",
			MaxDuration, MaxConcurrency, maxFaultTokens, trace.MaxOffset, trace.MaxConcurrency, trace.MaxTokens)
	}
}
