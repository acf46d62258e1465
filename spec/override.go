package spec

import (
	"errors"
	"fmt"
)

// Overrides are changes to a spec's seed and length given apart from it
// (the command line's --seed, --requests and --duration). Applied before
// the spec is compiled, they are covered by the spec hash.
type Overrides struct {
	Seed     *uint64 // nil: the spec's
	Requests string  // a count like 500 or 10k; "": the spec's
	Duration string  // a duration like 90s or 10m; "": the spec's
}

// Apply writes o into s, holding its values to the ranges of the spec's
// own (MaxRequests, MaxDuration). Errors name the command line's flags.
func (o Overrides) Apply(s *Spec) error {
	var errs []error
	if o.Seed != nil {
		s.Seed = *o.Seed
	}
	if o.Requests != "" {
		n, err := ParseCount(o.Requests)
		if err != nil || n <= 0 || n > MaxRequests {
			errs = append(errs, fmt.Errorf("--requests %q: want a positive count like 500 or 10k, at most %d (spec.MaxRequests)", o.Requests, MaxRequests))
		}
		s.Requests = n
	}
	if o.Duration != "" {
		d, err := ParseDuration(o.Duration)
		if err != nil || d <= 0 || d > MaxDuration {
			errs = append(errs, fmt.Errorf("--duration %q: want a positive duration like 90s or 10m, at most a year (spec.MaxDuration)", o.Duration))
		}
		s.Duration = d
	}
	return errors.Join(errs...)
}
