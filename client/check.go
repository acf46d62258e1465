package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Check reports every setting of c out of range: a negative timeout.
// Errors name the command line's flags.
func (c Config) Check() error {
	var errs []error
	for _, t := range []struct {
		flag string
		d    time.Duration
	}{{"timeout", c.Timeout}, {"connect-timeout", c.ConnectTimeout}, {"first-byte-timeout", c.FirstByteTimeout}, {"idle-timeout", c.IdleTimeout}} {
		if t.d < 0 {
			errs = append(errs, fmt.Errorf("--%s %v: want 0 (none) or a positive duration", t.flag, t.d))
		}
	}
	return errors.Join(errs...)
}

// ParseHeader reads header lines, "Name: value" each, into a header for
// Config.Header. A line without a name is refused without being quoted:
// it may hold a key.
func ParseHeader(lines []string) (http.Header, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	out := http.Header{}
	for i, h := range lines {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("--header number %d: want 'Name: value', e.g. --header 'X-API-Key: ...'", i+1)
		}
		out.Add(name, strings.TrimSpace(value))
	}
	return out, nil
}
