package sweep

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxLoad bounds a load: no server takes a billion requests per second
// or in flight.
const maxLoad = 1e9

// Check reports every field of c out of range; a zero field takes its
// default. Errors name the command line's flags.
func (c Config) Check() error {
	var errs []error
	fraction := func(flag string, v, lo float64, like string) {
		if v != 0 && !(v > lo && v < 1) { // negated so that NaN fails too
			errs = append(errs, fmt.Errorf("--%s %g: want a fraction between %g and 1, like %s", flag, v, lo, like))
		}
	}
	fraction("headroom", c.Headroom, 0, "0.2")
	fraction("precision", c.Precision, 0, "0.05")
	fraction("confidence", c.Confidence, 0.5, "0.99")
	switch {
	case !c.Auto && len(c.Loads) == 0:
		errs = append(errs, errors.New("nothing to sweep: give loads or Auto"))
	case c.Auto && c.Mode != Rate:
		errs = append(errs, errors.New("an automatic sweep varies the rate; give concurrencies explicitly"))
	case c.Points < 0 || c.ProbeConcurrency < 0:
		errs = append(errs, fmt.Errorf("--points %d, --probe-concurrency %d: want positive counts", c.Points, c.ProbeConcurrency))
	}
	for _, l := range c.Loads {
		if err := checkLoad(c.Mode, l); err != nil {
			errs = append(errs, fmt.Errorf("%g: %w", l, err))
		}
	}
	return errors.Join(errs...)
}

// ParseLoads reads a comma-separated list of loads of mode m, as in
// 1,2,4,8 (a rate may end in /s).
func ParseLoads(m Mode, s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	var out []float64
	for part := range strings.SplitSeq(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(part, "/s")), 64)
		if err != nil {
			v = math.NaN() // checkLoad says what a load must be
		}
		if err := checkLoad(m, v); err != nil {
			return nil, fmt.Errorf("%q: %w, as in 1,2,4,8", part, errors.Unwrap(err))
		}
		out = append(out, v)
	}
	return out, nil
}

// checkLoad refuses a load that is not positive, past maxLoad, or for a
// concurrency not whole.
func checkLoad(m Mode, v float64) error {
	what := "a positive number"
	if m == Concurrency {
		what = "a positive whole number"
	}
	if !(v > 0) || v > maxLoad || (m == Concurrency && v != float64(int(v))) {
		return fmt.Errorf("load: %w", errors.New("each load must be "+what))
	}
	return nil
}
