package spec

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Human units shared by the spec and the command-line flags. Every parser
// here is the inverse of the matching Format function, so a resolved spec
// prints values that read back to the same number.

// Day is the length of the "d" duration unit: 24 hours, no calendar.
const Day = 24 * time.Hour

// ParseDuration reads a non-negative duration in Go syntax plus "d" for days:
// "250ms", "2m", "1h30m", "1.5d", "1d12h". A bare number is rejected, except
// 0, since "30" could mean seconds or minutes.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("expected a duration like 30s, got nothing")
	}
	if n, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
		if n == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("expected a duration like 30s, got %s (a number needs a unit: write %ss)", show(t), t)
	}
	if strings.HasPrefix(t, "-") {
		return 0, fmt.Errorf("duration %s is negative", show(t))
	}
	d, err := parseDays(t)
	if err != nil {
		return 0, err
	}
	return d, nil
}

// parseDays rewrites a leading "<n>d" segment as hours and hands the rest to
// time.ParseDuration, which knows every other unit.
func parseDays(t string) (time.Duration, error) {
	bad := fmt.Errorf("expected a duration like 30s, 250ms, 1h30m or 2d, got %s", show(t))
	head, rest, found := strings.Cut(t, "d")
	if !found {
		d, err := time.ParseDuration(t)
		if err != nil {
			return 0, bad
		}
		return d, nil
	}
	days, err := strconv.ParseFloat(strings.TrimPrefix(head, "+"), 64)
	if err != nil || head == "" || strings.ContainsAny(head, "eEinfINFxX_") {
		return 0, bad
	}
	// 106751 days is the largest whole number of days a Duration holds.
	if days > 106751 {
		return 0, fmt.Errorf("duration %s is too long", show(t))
	}
	d := time.Duration(math.Round(days * float64(Day)))
	if rest == "" {
		return d, nil
	}
	r, err := time.ParseDuration(rest)
	if err != nil || strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "+") {
		return 0, bad
	}
	if r > math.MaxInt64-d {
		return 0, fmt.Errorf("duration %s is too long", show(t))
	}
	return d + r, nil
}

// FormatDuration prints d in the shortest form ParseDuration reads back:
// "10m" rather than "10m0s", "1h30m", "250ms", "0s".
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// rateUnit is a unit a rate may give after its slash.
type rateUnit struct {
	name    string
	seconds float64 // its length
}

// rateUnits are the rate units, in the order messages and docs list them.
var rateUnits = []rateUnit{
	{"s", 1}, {"sec", 1}, {"m", 60}, {"min", 60}, {"h", 3600}, {"hr", 3600}, {"d", 86400},
}

// rateUnitList names the rate units for messages: "s, sec, …, hr or d".
func rateUnitList() string {
	names := make([]string, len(rateUnits))
	for i, u := range rateUnits {
		names[i] = u.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseRate reads a non-negative rate and returns it per second: "5/s",
// "300/m", "1200/h", "2.5k/s", "100/d", also with sec, min or hr after the
// slash. A bare number is per second.
func ParseRate(s string) (float64, error) {
	t := strings.TrimSpace(s)
	num, unit, found := strings.Cut(t, "/")
	per := 1.0
	if found {
		i := slices.IndexFunc(rateUnits, func(u rateUnit) bool { return u.name == strings.TrimSpace(unit) })
		if i < 0 {
			return 0, fmt.Errorf("expected a rate like 5/s, 300/m or 1200/h, got %s (the unit after / is %s)", show(t), rateUnitList())
		}
		per = rateUnits[i].seconds
	}
	n, err := ParseNumber(strings.TrimSpace(num))
	if err != nil {
		return 0, fmt.Errorf("expected a rate like 5/s, 300/m or 1200/h, got %s", show(t))
	}
	if n < 0 {
		return 0, fmt.Errorf("rate %s is negative", show(t))
	}
	return n / per, nil
}

// FormatRate prints a per-second rate as ParseRate reads it back: "20/s".
func FormatRate(perSecond float64) string {
	return strconv.FormatFloat(perSecond, 'g', -1, 64) + "/s"
}

// multipliers maps a count or number suffix to its factor. A lower-case m is
// left out on purpose: it reads as milli as easily as mega.
var multipliers = map[byte]int64{'k': 1e3, 'K': 1e3, 'M': 1e6, 'G': 1e9}

// splitSuffix separates a k/K/M/G multiplier from the digits before it.
func splitSuffix(t string) (string, int64) {
	if t == "" {
		return t, 1
	}
	if m, ok := multipliers[t[len(t)-1]]; ok {
		return t[:len(t)-1], m
	}
	return t, 1
}

// ParseCount reads a non-negative whole count such as a number of requests
// or tokens: "5000", "12k" (12000), "1.5k", "2M", "1G". The result must be a
// whole number, so "1.2345k" is rejected.
func ParseCount(s string) (int, error) {
	t := strings.TrimSpace(s)
	digits, mul := splitSuffix(t)
	r, ok := new(big.Rat).SetString(digits)
	if !ok || digits == "" || strings.ContainsAny(digits, "/xXoObB_") || !smallExponent(digits) {
		if strings.HasSuffix(t, "m") {
			return 0, fmt.Errorf("expected a count like 500, 12k or 2M, got %s (write M for millions)", show(t))
		}
		return 0, fmt.Errorf("expected a count like 500, 12k or 2M, got %s", show(t))
	}
	r.Mul(r, new(big.Rat).SetInt64(mul))
	if r.Sign() < 0 {
		return 0, fmt.Errorf("count %s is negative", show(t))
	}
	if !r.IsInt() {
		return 0, fmt.Errorf("count %s is not a whole number (it is %s)", show(t), r.FloatString(3))
	}
	if !r.Num().IsInt64() || r.Num().Int64() > math.MaxInt {
		return 0, fmt.Errorf("count %s is too large", show(t))
	}
	return int(r.Num().Int64()), nil
}

// smallExponent reports whether any exponent in a decimal number is at most
// 30 in size. big.Rat would otherwise build 10^1e9 for "1e1000000000".
func smallExponent(digits string) bool {
	i := strings.IndexAny(digits, "eE")
	if i < 0 {
		return true
	}
	e, err := strconv.Atoi(digits[i+1:])
	return err == nil && e >= -30 && e <= 30
}

// ParseNumber reads a finite real number with an optional k/K, M or G
// multiplier: "0.9", "1k", "2.5M", "-3", "1e-3".
func ParseNumber(s string) (float64, error) {
	t := strings.TrimSpace(s)
	digits, mul := splitSuffix(t)
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil || digits == "" || strings.ContainsAny(digits, "xXpP_") {
		return 0, fmt.Errorf("expected a number like 0.5, 300 or 1.5k, got %s", show(t))
	}
	v *= float64(mul)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("expected a finite number, got %s", show(t))
	}
	return v, nil
}

// show prints a value from the spec in an error message: as written when it
// is a plain word or number, quoted when quotes make it clearer.
func show(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n\r\"'`,:") || !strconv.CanBackquote(s) {
		return strconv.Quote(s)
	}
	return s
}
