package server

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// faultKinds maps the syntax's names back to kinds.
var faultKinds = func() map[string]FaultKind {
	m := make(map[string]FaultKind, len(faultNames))
	for k, n := range faultNames {
		m[n] = k
	}
	return m
}()

// faultSyntax is appended to parse errors as a reminder of the grammar.
const faultSyntax = `; items are KIND[=ARG][:PROB][@FROM-[TO][/EVERY]], retry-after=DUR or restart=DUR@AT, ` +
	`e.g. "status=429:0.1,stall-stream=5s:0.05@1m-2m,restart=5s@30s"`

// ParseFaults reads the fault syntax (see the package doc): comma-separated
// items, each a rule KIND[=ARG][:PROB][@WINDOW], "retry-after=DUR" or
// "restart=DOWN@AT". An empty string is no faults. The result is
// validated; errors name the item, its position and the fix.
func ParseFaults(s string) (Faults, error) {
	var f Faults
	if strings.TrimSpace(s) == "" {
		return f, nil
	}
	seenRetry := false
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if err := f.parseItem(item, &seenRetry); err != nil {
			return Faults{}, fmt.Errorf("faults item %d %q: %w%s", i+1, item, err, faultSyntax)
		}
	}
	if err := f.Validate(); err != nil {
		return Faults{}, fmt.Errorf("faults %q: %w", s, err)
	}
	return f, nil
}

// parseItem adds one item to f.
func (f *Faults) parseItem(item string, seenRetry *bool) error {
	if item == "" {
		return errors.New("empty item; remove the extra comma")
	}
	head, rest := item, ""
	if i := strings.IndexAny(item, "=:@"); i >= 0 {
		head, rest = item[:i], item[i:]
	}
	arg, hasArg := strings.CutPrefix(rest, "=")
	switch head {
	case "retry-after":
		return f.parseRetryAfter(arg, hasArg, seenRetry)
	case "restart":
		r, err := parseRestart(arg, hasArg)
		f.Restarts = append(f.Restarts, r)
		return err
	}
	kind, ok := faultKinds[head]
	if !ok {
		return fmt.Errorf("unknown fault %q; want status, stall-headers, stall-stream, reset, reset-stream, broken-sse, retry-after or restart", head)
	}
	r, err := parseRule(kind, rest)
	f.Rules = append(f.Rules, r)
	return err
}

// parseRetryAfter reads retry-after=DUR; 0 means no header.
func (f *Faults) parseRetryAfter(arg string, hasArg bool, seen *bool) error {
	if *seen {
		return errors.New("retry-after given twice; keep one")
	}
	*seen = true
	if !hasArg {
		return errors.New("retry-after needs a duration, e.g. retry-after=2s (0 sends no header)")
	}
	d, err := parseDuration(arg)
	if err != nil {
		return fmt.Errorf("retry-after: %w", err)
	}
	f.RetryAfter = d
	if d == 0 {
		f.RetryAfter = -1
	}
	return nil
}

// parseRestart reads the argument of restart=DOWN@AT.
func parseRestart(arg string, hasArg bool) (Restart, error) {
	down, at, ok := strings.Cut(arg, "@")
	if !hasArg || !ok {
		return Restart{}, errors.New("restart needs a downtime and an offset, e.g. restart=5s@30s (down 5 s, 30 s after start)")
	}
	var r Restart
	var err error
	if r.Down, err = parseDuration(down); err != nil {
		return r, fmt.Errorf("restart downtime: %w", err)
	}
	if r.At, err = parseDuration(at); err != nil {
		return r, fmt.Errorf("restart offset (after @): %w", err)
	}
	if r.Down == 0 {
		return r, errors.New("restart downtime must be positive, e.g. restart=5s@30s")
	}
	return r, nil
}

// parseRule reads a rule of kind from the rest of its item:
// [=ARG][:PROB][@WINDOW].
func parseRule(kind FaultKind, rest string) (Fault, error) {
	r := Fault{Kind: kind, Prob: 1}
	rest, window, hasWindow := strings.Cut(rest, "@")
	if hasWindow && strings.Contains(window, ":") {
		return r, fmt.Errorf("the probability goes before the window: %s:PROB@%s", kind, strings.Split(window, ":")[0])
	}
	rest, prob, hasProb := strings.Cut(rest, ":")
	arg, hasArg := strings.CutPrefix(rest, "=")
	if !hasArg && rest != "" {
		return r, fmt.Errorf("unexpected %q after %s", rest, kind)
	}
	if err := r.parseArg(arg, hasArg); err != nil {
		return r, err
	}
	if hasProb {
		p, err := parseProb(prob)
		if err != nil {
			return r, err
		}
		r.Prob = p
	}
	if hasWindow {
		w, err := parseWindow(window)
		if err != nil {
			return r, err
		}
		r.Window = w
	}
	return r, nil
}

// parseArg reads the rule's argument: a status code or a pause.
func (r *Fault) parseArg(arg string, hasArg bool) error {
	switch r.Kind {
	case FaultStatus:
		if !hasArg {
			return errors.New("status needs a code, e.g. status=429:0.1")
		}
		code, err := strconv.Atoi(arg)
		if err != nil || code < 400 || code > 599 {
			return fmt.Errorf("status %q is not an HTTP error status; want 400–599, e.g. status=503", arg)
		}
		r.Status = code
	case FaultStallHeaders, FaultStallStream:
		if !hasArg {
			return fmt.Errorf("%s needs a pause, e.g. %s=3s:0.05", r.Kind, r.Kind)
		}
		d, err := parseDuration(arg)
		if err != nil {
			return fmt.Errorf("%s pause: %w", r.Kind, err)
		}
		if d == 0 {
			return fmt.Errorf("%s pause must be positive", r.Kind)
		}
		r.Stall = d
	default:
		if hasArg {
			return fmt.Errorf("%s takes no argument; write %s:PROB, e.g. %s:0.02", r.Kind, r.Kind, r.Kind)
		}
	}
	return nil
}

// parseProb reads a probability in (0, 1] as a fraction or a percentage.
func parseProb(s string) (float64, error) {
	scale := 1.0
	if t, ok := strings.CutSuffix(s, "%"); ok {
		s, scale = t, 100
	}
	p, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("probability %q is not a number; write 0.05 or 5%%", s)
	}
	p /= scale
	if !(p > 0 && p <= 1) {
		return 0, fmt.Errorf("probability %g is outside (0, 1]; write 0.05 or 5%%", p)
	}
	return p, nil
}

// parseWindow reads FROM-[TO][/EVERY].
func parseWindow(s string) (Window, error) {
	span, every, periodic := strings.Cut(s, "/")
	from, to, ok := strings.Cut(span, "-")
	if !ok {
		return Window{}, fmt.Errorf("window %q needs FROM-TO offsets from the server's start, e.g. @10s-20s, @10s- (open) or @10s-20s/1m (repeating)", s)
	}
	var w Window
	var err error
	if w.From, err = parseDuration(from); err != nil {
		return w, fmt.Errorf("window start: %w", err)
	}
	if to != "" {
		if w.To, err = parseDuration(to); err != nil {
			return w, fmt.Errorf("window end: %w", err)
		}
	}
	if periodic {
		if w.Every, err = parseDuration(every); err != nil {
			return w, fmt.Errorf("window period: %w", err)
		}
		if w.Every == 0 {
			return w, errors.New("window period must be positive")
		}
	}
	return w, w.validate()
}

// parseDuration reads a non-negative Go duration; a bare 0 is allowed.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration; write e.g. 500ms, 5s or 1m30s", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return d, nil
}
