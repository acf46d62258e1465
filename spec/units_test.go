package spec

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

func TestParseDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    time.Duration
		wantErr string // substring; "" means no error
		reason  string
	}{
		{"250ms", 250 * time.Millisecond, "", "Go syntax"},
		{"2m", 2 * time.Minute, "", "minutes"},
		{"1h30m", 90 * time.Minute, "", "compound"},
		{"1d", Day, "", "days"},
		{"1.5d", 36 * time.Hour, "", "fractional days"},
		{"1d12h", 36 * time.Hour, "", "days then Go units"},
		{" 30s ", 30 * time.Second, "", "spaces are trimmed"},
		{"0", 0, "", "bare zero is unambiguous"},
		{"0.0", 0, "", "bare zero in any spelling"},
		{"30", 0, "write 30s", "bare numbers are ambiguous"},
		{"1.5", 0, "write 1.5s", "bare fractions too"},
		{"", 0, "got nothing", "empty"},
		{"-5s", 0, "negative", "offsets and lengths are never negative"},
		{"1d-1h", 0, "expected a duration", "no negative part after days"},
		{"5x", 0, "expected a duration", "unknown unit"},
		{"d", 0, "expected a duration", "days without a number"},
		{"1e3d", 0, "expected a duration", "no exponents"},
		{"infd", 0, "expected a duration", "no infinity"},
		{"inf", 0, "expected a duration", "no bare infinity either"},
		{"200000d", 0, "too long", "beyond time.Duration"},
		{"106751d23h", 2562047 * time.Hour, "", "just inside the limit"},
		{"106751d24h", 0, "too long", "days plus hours past the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseDuration(tt.in)
			checkParse(t, tt.reason, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestFormatDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     time.Duration
		want   string
		reason string
	}{
		{0, "0s", "zero"},
		{10 * time.Minute, "10m", "no trailing 0s"},
		{time.Hour, "1h", "no trailing 0m0s"},
		{90 * time.Minute, "1h30m", "compound"},
		{24 * time.Hour, "24h", "a day stays in hours"},
		{time.Hour + 10*time.Second, "1h0m10s", "inner zeros stay"},
		{250 * time.Millisecond, "250ms", "sub-second"},
		{90 * time.Second, "1m30s", "minutes and seconds"},
	}
	for _, tt := range tests {
		got := FormatDuration(tt.in)
		if got != tt.want {
			t.Errorf("%s: FormatDuration(%v) = %q, want %q", tt.reason, tt.in, got, tt.want)
		}
		back, err := ParseDuration(got)
		if err != nil || back != tt.in {
			t.Errorf("%s: ParseDuration(%q) = %v, %v; want %v", tt.reason, got, back, err, tt.in)
		}
	}
}

func TestParseRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    float64
		wantErr string
		reason  string
	}{
		{"5/s", 5, "", "per second"},
		{"300/m", 5, "", "per minute"},
		{"1200/h", 1200.0 / 3600, "", "per hour"},
		{"86400/d", 1, "", "per day"},
		{"5", 5, "", "bare number is per second"},
		{"2.5k/s", 2500, "", "k suffix"},
		{"0.5/sec", 0.5, "", "long unit name"},
		{"6 / min", 0.1, "", "spaces around the slash"},
		{"0", 0, "", "zero is a valid rate (a paused stage)"},
		{"-1/s", 0, "negative", "negative"},
		{"7200/hr", 2, "", "hr is h"},
		{"5/x", 0, "the unit after / is s, sec, m, min, h, hr or d)", "unknown unit: the message lists every unit"},
		{"1/w", 0, "unit after /", "no week unit: a week is 7d"},
		{"1/S", 0, "unit after /", "units are lower case"},
		{"/s", 0, "expected a rate", "no number"},
		{"fast", 0, "expected a rate", "not a number"},
		{"1e999/s", 0, "expected a rate", "overflow"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseRate(tt.in)
			checkParse(t, tt.reason, got, err, tt.want, tt.wantErr)
		})
	}
}

// TestRateUnitsListed checks that every rate unit ParseRate accepts is
// named in its error message and in docs/spec.md's units table.
func TestRateUnitsListed(t *testing.T) {
	t.Parallel()
	_, err := ParseRate("1/fortnight")
	if err == nil {
		t.Fatal("ParseRate accepted an unknown unit")
	}
	doc, rerr := os.ReadFile("../docs/spec.md")
	if rerr != nil {
		t.Fatal(rerr)
	}
	_, units, _ := strings.Cut(err.Error(), "the unit after / is ")
	for _, u := range rateUnits {
		if _, perr := ParseRate("1/" + u.name); perr != nil {
			t.Errorf("unit %s: %v", u.name, perr)
		}
		if !slices.Contains(strings.FieldsFunc(units, func(r rune) bool { return !unicode.IsLetter(r) }), u.name) {
			t.Errorf("unit %s is missing from the message %q", u.name, err)
		}
		if !strings.Contains(string(doc), "`/"+u.name+"`") {
			t.Errorf("unit %s is missing from docs/spec.md (as `/%s`)", u.name, u.name)
		}
	}
}

func TestFormatRate(t *testing.T) {
	t.Parallel()
	for _, r := range []float64{5, 0.1, 20.0 / 3, 1e-7, 2500} {
		s := FormatRate(r)
		back, err := ParseRate(s)
		if err != nil || back != r {
			t.Errorf("ParseRate(FormatRate(%v) = %q) = %v, %v", r, s, back, err)
		}
	}
}

func TestParseCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    int
		wantErr string
		reason  string
	}{
		{"5000", 5000, "", "plain"},
		{"12k", 12000, "", "k"},
		{"12K", 12000, "", "K"},
		{"1.5k", 1500, "", "fraction that comes out whole"},
		{"2M", 2000000, "", "M"},
		{"1G", 1000000000, "", "G"},
		{"1e3", 1000, "", "exponent"},
		{"0", 0, "", "zero"},
		{"1.2345k", 0, "not a whole number", "fractional result"},
		{"2.5", 0, "not a whole number", "fraction"},
		{"-3", 0, "negative", "negative"},
		{"2m", 0, "write M for millions", "lower-case m is ambiguous"},
		{"1/2", 0, "expected a count", "no fractions"},
		{"0x10", 0, "expected a count", "no hex"},
		{"k", 0, "expected a count", "suffix alone"},
		{"", 0, "expected a count", "empty"},
		{"1e999999999", 0, "expected a count", "huge exponent is refused, not computed"},
		{"1e30", 0, "too large", "beyond int"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseCount(tt.in)
			checkParse(t, tt.reason, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestParseNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    float64
		wantErr string
		reason  string
	}{
		{"0.9", 0.9, "", "plain"},
		{"1k", 1000, "", "k"},
		{"2.5M", 2.5e6, "", "M"},
		{"-3", -3, "", "negative is allowed (range checks are the caller's)"},
		{"1e-3", 0.001, "", "exponent"},
		{".5", 0.5, "", "leading dot"},
		{"inf", 0, "finite", "infinity"},
		{"nan", 0, "finite", "NaN"},
		{"0x1p3", 0, "expected a number", "no hex floats"},
		{"1m", 0, "expected a number", "lower-case m"},
		{"", 0, "expected a number", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseNumber(tt.in)
			checkParse(t, tt.reason, got, err, tt.want, tt.wantErr)
		})
	}
}

// checkParse compares a parser's result with the expected value or error.
func checkParse[T comparable](t *testing.T, reason string, got T, err error, want T, wantErr string) {
	t.Helper()
	if wantErr == "" {
		if err != nil || got != want {
			t.Errorf("%s: got %v, %v; want %v", reason, got, err, want)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Errorf("%s: got %v, %v; want an error containing %q", reason, got, err, wantErr)
	}
}
