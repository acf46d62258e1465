package importers

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ParseFormat returns the format named name, or an error listing the
// formats (auto first, for detection, which the caller handles).
func ParseFormat(name string) (Format, error) {
	if !slices.Contains(Formats, Format(name)) {
		names := make([]string, len(Formats))
		for i, f := range Formats {
			names[i] = string(f)
		}
		return "", fmt.Errorf("%q: the formats are auto, %s", name, strings.Join(names, ", "))
	}
	return Format(name), nil
}

// ParseWindow parses a window of a trace's offsets, FROM-TO, each a
// duration (90s, 10m) or a number of seconds, TO optional (30m-: to the
// end); empty is the whole trace, 0 and 0.
func ParseWindow(s string) (from, to time.Duration, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, errors.New("want FROM-TO, such as 10m-20m, 600-1200 or 30m-")
	}
	if from, err = parseOffset(a); err == nil && b != "" {
		to, err = parseOffset(b)
	}
	return from, to, err
}

// parseOffset parses a duration, or a number of seconds.
func parseOffset(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	sec, err := strconv.ParseFloat(s, 64)
	if err != nil || sec < 0 || sec > 1e9 {
		return 0, fmt.Errorf("%q: want a duration (90s, 10m) or seconds", s)
	}
	return time.Duration(sec * float64(time.Second)), nil
}

// ParseLengths parses ServeGen's fallback lengths, IN:OUT tokens, both
// at least 1; empty is 1024:256.
func ParseLengths(s string) (in, out int, err error) {
	if s == "" {
		return 1024, 256, nil
	}
	a, b, ok := strings.Cut(s, ":")
	in, err1 := strconv.Atoi(a)
	out, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || in < 1 || out < 1 {
		return 0, 0, fmt.Errorf("%q: want IN:OUT tokens, such as 1024:256", s)
	}
	return in, out, nil
}

// ParseArrivals parses how ShareGPT's conversations start at a rate,
// poisson or even, and reports whether they are evenly spaced.
func ParseArrivals(s string) (even bool, err error) {
	switch s {
	case "poisson", "even":
		return s == "even", nil
	}
	return false, fmt.Errorf("%q: want poisson or even", s)
}
