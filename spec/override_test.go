package spec

import (
	"strings"
	"testing"
	"time"
)

func TestOverrides(t *testing.T) {
	t.Parallel()
	seed := uint64(9)
	s := &Spec{Seed: 1, Requests: 10, Duration: time.Minute}
	if err := (Overrides{Seed: &seed, Requests: "2k", Duration: "90s"}).Apply(s); err != nil {
		t.Fatal(err)
	}
	if s.Seed != 9 || s.Requests != 2000 || s.Duration != 90*time.Second {
		t.Errorf("applied: seed %d, requests %d, duration %v; want 9, 2000, 1m30s", s.Seed, s.Requests, s.Duration)
	}
	kept := &Spec{Seed: 1, Requests: 10}
	if err := (Overrides{}).Apply(kept); err != nil || kept.Seed != 1 || kept.Requests != 10 {
		t.Errorf("no overrides: %v, seed %d, requests %d", err, kept.Seed, kept.Requests)
	}
	for _, tt := range []struct {
		o    Overrides
		want string
	}{
		{Overrides{Requests: "0"}, `--requests "0"`},
		{Overrides{Requests: "lots"}, `--requests "lots"`},
		{Overrides{Requests: "1e18"}, "spec.MaxRequests"},
		{Overrides{Duration: "-5s"}, `--duration "-5s"`},
		{Overrides{Duration: "100y"}, "spec.MaxDuration"},
		{Overrides{Duration: "876000h"}, "spec.MaxDuration"},
	} {
		if err := tt.o.Apply(&Spec{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Apply(%+v) = %v, want an error saying %q", tt.o, err, tt.want)
		}
	}
}
