package trace

import (
	"testing"
	"time"
)

func TestParseStart(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s    string
		want time.Time
		err  string
	}{
		{"2026-11-30T12:00:00Z", time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), ""},
		{"2026-11-30T13:00:00.5+01:00", time.Date(2026, 11, 30, 12, 0, 0, 500_000_000, time.UTC), ""},
		{"", time.Time{}, ""},
		{"tomorrow", time.Time{}, `"tomorrow": want an RFC 3339 instant like 2026-11-30T12:00:00Z`},
	} {
		got, err := ParseStart(tt.s)
		if !got.Equal(tt.want) || got.Location() != time.UTC || errText(err) != tt.err {
			t.Errorf("ParseStart(%q) = %v, %q; want %v in UTC, %q", tt.s, got, errText(err), tt.want, tt.err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
