package harness

import (
	"errors"
	"fmt"
	"strings"

	"surge/internal/redact"
	"surge/openai"
)

// knownAPI reports whether api names an endpoint surge sends to.
func knownAPI(api string) bool {
	_, ok := openai.Path(api)
	return ok
}

// MaxSalt bounds Config.Salt: a nonce takes the place of the first
// tokens of every conversation, and a run records it in every file.
const MaxSalt = 256

// Check reports what is wrong in c's settings before anything runs, as
// a ConfigError (nil when nothing is); errors name the command line's
// flags. Run calls it. The workload is not checked.
func (c Config) Check() error {
	var errs []error
	switch {
	case c.API != "" && !knownAPI(c.API):
		errs = append(errs, fmt.Errorf("--api %q: want one of %s", c.API, strings.Join(openai.APIs(), ", ")))
	case c.MaxConcurrency < 0:
		errs = append(errs, fmt.Errorf("--max-concurrency %d: want 0 (no cap) or more", c.MaxConcurrency))
	case c.Drop && c.MaxConcurrency == 0:
		errs = append(errs, errors.New("--drop needs --max-concurrency: there is no cap to drop at"))
	case c.MaxErrorRate < 0 || c.MaxErrorRate > 1 || c.MaxErrorRate != c.MaxErrorRate:
		errs = append(errs, fmt.Errorf("--max-error-rate %g: want a fraction from 0 (off) to 1, e.g. 0.5", c.MaxErrorRate))
	case c.ReadyCheckTimeout < 0:
		errs = append(errs, fmt.Errorf("--ready-check-timeout %v: want a time like 10m, or 0 not to wait", c.ReadyCheckTimeout))
	case c.ProgressEvery < 0:
		errs = append(errs, fmt.Errorf("--progress %v: want a period like 10s, or 0 for none", c.ProgressEvery))
	case c.Dir == "" && c.Records == nil:
		errs = append(errs, errors.New("no bundle directory and no Records writer: the run's records need a place (-o DIR, or -o - for standard output)"))
	case c.Dir != "" && c.Records != nil:
		errs = append(errs, fmt.Errorf("a bundle directory (%s) and a Records writer: the records go to one of them", c.Dir))
	case len(c.ExtraBody) > 0 && openai.CheckObject(c.ExtraBody) != nil:
		errs = append(errs, fmt.Errorf("--extra-body %s: %v", redact.Clip(string(c.ExtraBody)), openai.CheckObject(c.ExtraBody)))
	case len(c.Salt) > MaxSalt:
		errs = append(errs, fmt.Errorf("--salt %q: a nonce is at most %d bytes (it goes before every conversation)", redact.Clip(c.Salt), MaxSalt))
	}
	if c.Virtual == nil && c.Servers == nil {
		errs = append(errs, CheckTarget(c.Target), c.Client.Check(), c.Retry.Check())
		if c.Target == "" {
			errs = append(errs, c.Engine.Settings.orDefaults(c.Engine.TP).Check())
		}
	}
	if err := errors.Join(errs...); err != nil {
		return ConfigError{err}
	}
	return nil
}
