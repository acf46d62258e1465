package spec

import (
	"strings"
	"testing"
	"time"
)

const faultsHead = "version: 1\nrequests: 10\nclients:\n  - name: a\n    model: m\n    rate: 1/s\n    input: 10\n    output: 10\n    faults:\n"

func TestFaults(t *testing.T) {
	t.Parallel()
	s, err := Parse("f.yaml", []byte(faultsHead+`      empty_prompt: 1%
      malformed_json: 0.01
      invalid_params: 2%
      churn: 10%
      over_context: 1%
      cancel: {share: 5%, after_tokens: 10}
      slow_reader: {share: 2%, bytes_per_s: 2k}
      stall: {share: 1%, for: 30s}
      storm: [{at: 30s, fraction: 50%}, {at: 1m, fraction: 1}]
      burst: {at: 20s, for: 10s, factor: 4}
`))
	if err != nil {
		t.Fatal(err)
	}
	f := s.Clients[0].Faults
	want := Faults{EmptyPrompt: 0.01, MalformedJSON: 0.01, InvalidParams: 0.02, Churn: 0.1,
		OverContext: &OverContext{Share: 0.01, Tokens: DefaultOverContextTokens},
		Cancel:      &Cancel{Share: 0.05, AfterTokens: 10},
		SlowReader:  &SlowReader{Share: 0.02, BytesPerS: 2000},
		Stall:       &Stall{Share: 0.01, For: 30 * time.Second},
		Storms:      []Storm{{30 * time.Second, 0.5}, {time.Minute, 1}},
		Bursts:      []Burst{{20 * time.Second, 10 * time.Second, 4}}}
	if f.EmptyPrompt != want.EmptyPrompt || f.MalformedJSON != want.MalformedJSON || f.InvalidParams != want.InvalidParams ||
		f.Churn != want.Churn || *f.OverContext != *want.OverContext || *f.Cancel != *want.Cancel ||
		*f.SlowReader != *want.SlowReader || *f.Stall != *want.Stall || len(f.Storms) != 2 || f.Storms[1] != want.Storms[1] ||
		len(f.Bursts) != 1 || f.Bursts[0] != want.Bursts[0] {
		t.Errorf("faults %+v", f)
	}
	if !strings.Contains(string(s.Canonical()), "cancel: {share: 0.05, after_tokens: 10, after: 0s}") {
		t.Errorf("the canonical form leaves the faults out:\n%s", s.Canonical())
	}
}

func TestFaultErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ block, want string }{
		{"      empty_prompt: 60%\n      churn: 50%\n", "add up to 110%"},
		{"      empty_prompt: 150%\n", "between 0 and 100%"},
		{"      empty_prompt: lots\n", "a share like 5% or 0.05"},
		{"      cancel: {share: 1%}\n", "missing key after_tokens"},
		{"      cancel: {share: 1%, after_tokens: 3, after: 1s}\n", "not both"},
		{"      burst: {at: 1s, for: 1s, factor: 0.5}\n", "factor must be > 1"},
		{"      storm: {at: 1s}\n", "missing key fraction"},
		{"      stal: {share: 1%, for: 1s}\n", `did you mean "stall"`},
		{"      slow_reader: {share: 1%, bytes_per_s: 0}\n", "bytes_per_s must be at least 1"},
	} {
		_, err := Parse("f.yaml", []byte(faultsHead+tt.block))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want an error containing %q", tt.block, err, tt.want)
		}
	}
}
