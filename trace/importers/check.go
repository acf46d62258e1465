package importers

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// OptionError is an import option out of range, or given where it does
// not apply: found by Check before any file is read. Its message names
// options as surge import's flags do (--speed for Speed, --max-context
// for Reshape.MaxContext), as the package's other errors do, and says
// what value was given and what is wanted.
type OptionError struct {
	// Option is the option at fault, as surge import's flag names it
	// without its dashes (speed, window, columns), or "files" for the
	// number of files a format takes.
	Option string
	Err    error
}

// Error returns the message.
func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap returns the message's error.
func (e *OptionError) Unwrap() error { return e.Err }

// optionError returns an *OptionError for option, its message formatted.
func optionError(option, format string, args ...any) *OptionError {
	return &OptionError{Option: option, Err: fmt.Errorf(format, args...)}
}

// Check reports every option of o out of range, or not applying to an
// import of the named files in o.Format, each an *OptionError, joined;
// with no Format, only the options of every format. Import calls it once
// the format is known; a command line calls it first, to tell a mistake
// in its flags from a failed import. A zero Speed, Concurrency or
// Reshape.Sample reads as its default (1, 1 and all).
func (o ImportOptions) Check(names []string) error { return o.check(names, false) }

// CheckSet is Check for options that are all set, as a command line's
// flags with their defaults are: a Speed, Concurrency or Reshape.Sample
// of 0 is then a value given, and out of range.
func (o ImportOptions) CheckSet(names []string) error { return o.check(names, true) }

// check is Check, with zeros out of range when set.
func (o ImportOptions) check(names []string, set bool) error {
	errs := o.checkTime(set)
	if err := o.Reshape.validate(set); err != nil {
		errs = append(errs, err)
	}
	if o.Format != "" {
		errs = append(errs, o.checkFormat(names)...)
	}
	return errors.Join(errs...)
}

// checkTime checks the options of the replay's pace and times: speed,
// rate, concurrency, think time and the unit of generic traces' times.
func (o ImportOptions) checkTime(set bool) []error {
	var errs []error
	if !(o.Speed > 0 || o.Speed == 0 && !set) || math.IsInf(o.Speed, 0) {
		errs = append(errs, optionError("speed", "--speed %g: want a positive factor", o.Speed))
	}
	if !(o.Rate >= 0) || math.IsInf(o.Rate, 0) {
		errs = append(errs, optionError("rate", "--rate %g: want a positive rate per second", o.Rate))
	}
	if o.Speed != 0 && o.Speed != 1 && o.Rate > 0 {
		errs = append(errs, optionError("rate", "--speed and --rate both set the time scale: give one"))
	}
	if o.Concurrency < 0 || o.Concurrency == 0 && set {
		errs = append(errs, optionError("concurrency", "--concurrency %d: want at least 1", o.Concurrency))
	}
	if o.Think < 0 {
		errs = append(errs, optionError("think", "--think %v: want a duration ≥ 0", o.Think))
	}
	if o.TimeUnit != "" && !slices.Contains(TimeUnits, o.TimeUnit) {
		errs = append(errs, optionError("time-unit", "--time-unit %q: want one of %s", o.TimeUnit, strings.Join(TimeUnits, ", ")))
	}
	return errs
}

// checkFormat checks the options that apply to some formats only, and
// the number of files.
func (o ImportOptions) checkFormat(names []string) []error {
	if !slices.Contains(Formats, o.Format) {
		_, err := ParseFormat(string(o.Format))
		return []error{optionError("format", "--format %w", err)}
	}
	errs := o.checkColumns()
	window := o.Reshape.From > 0 || o.Reshape.To > 0
	switch o.Format {
	case FormatShareGPT:
		if len(names) > 1 {
			errs = append(errs, optionError("files", "sharegpt: give one file, not %d", len(names)))
		}
		if window {
			errs = append(errs, optionError("window", "--window does not apply to sharegpt, which records no times"))
		}
	case FormatWEKA, FormatWEKACSV, FormatWEKASummary:
		if window || o.Rate > 0 {
			errs = append(errs, optionError("window", "--window and --rate do not apply to weka conversations, which run closed loop"))
		}
		if (o.Format == FormatWEKACSV || o.Format == FormatWEKASummary) && len(names) > 1 {
			errs = append(errs, optionError("files", "%s: give one file, not %d: each holds every conversation", o.Format, len(names)))
		}
		if o.Format == FormatWEKASummary && o.Output < 0 {
			errs = append(errs, optionError("lengths", "--lengths %d:%d: want IN:OUT tokens, OUT at least 1", o.Input, o.Output))
		}
	case FormatServeGen:
		if o.Input < 0 || o.Output < 0 || (o.Input == 0) != (o.Output == 0) {
			errs = append(errs, optionError("lengths", "--lengths %d:%d: want IN:OUT tokens, both at least 1", o.Input, o.Output))
		}
	}
	return errs
}

// checkColumns checks Columns: a mapping exactly for the csv and jsonl
// formats.
func (o ImportOptions) checkColumns() []error {
	var errs []error
	generic := o.Format == FormatCSV || o.Format == FormatJSONL
	c := o.Columns
	switch {
	case generic && c == Columns{}:
		errs = append(errs, optionError("columns", "%s: give --columns [at=F,]input=F,output=F[,client=F][,session=F]", o.Format))
	case generic && (c.Input == "" || c.Output == ""):
		errs = append(errs, optionError("columns", "--columns %q: want at least input= and output=", c))
	case generic && c.At == "" && c.Session != "":
		errs = append(errs, optionError("columns", "--columns %q: a session needs at=, the times of its turns", c))
	case !generic && c != Columns{}:
		errs = append(errs, optionError("columns", "--columns is for the csv and jsonl formats, not %s", o.Format))
	}
	return errs
}
