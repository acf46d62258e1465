package parity

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"surge/harness"
	"surge/internal/redact"
)

// ParseTargets reads the targets of a parity run, each a base URL or
// NAME=URL, the first being the base; an unnamed target is named by its
// host and path. Every target gets like's key, model and header. Errors
// name the command line's --target and never show a URL's credentials.
func ParseTargets(items []string, like Target) ([]Target, error) {
	if len(items) < 2 {
		return nil, fmt.Errorf("parity needs --target at least twice (the base, then candidates), got %d", len(items))
	}
	var ts []Target
	var errs []error
	seen := map[string]bool{}
	for _, item := range items {
		name, u := "", strings.TrimSpace(item)
		if harness.IsPair(u) {
			name, u, _ = strings.Cut(u, "=")
		}
		if err := harness.CheckURL(u, "--target "+redact.URL(u)); err != nil {
			errs = append(errs, err)
			continue
		}
		if name == "" {
			p, _ := url.Parse(u)
			name = p.Host + strings.TrimRight(p.Path, "/")
		}
		if seen[name] {
			errs = append(errs, fmt.Errorf("--target: %s is given twice (name them NAME=URL)", name))
		}
		seen[name] = true
		t := like
		t.Name, t.BaseURL = name, u
		ts = append(ts, t)
	}
	return ts, errors.Join(errs...)
}
