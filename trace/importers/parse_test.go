package importers

import (
	"testing"
	"time"
)

func TestParseWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		from, to time.Duration
		err      string
	}{
		{"", 0, 0, ""}, // the whole trace
		{"10m-20m", 10 * time.Minute, 20 * time.Minute, ""},        // durations
		{"1.5-90", 1500 * time.Millisecond, 90 * time.Second, ""},  // seconds
		{"30m-", 30 * time.Minute, 0, ""},                          // to the end
		{"-5m", 0, 0, `"": want a duration (90s, 10m) or seconds`}, // no start
		{"10m", 0, 0, "want FROM-TO, such as 10m-20m, 600-1200 or 30m-"},
		{"a-b", 0, 0, `"a": want a duration (90s, 10m) or seconds`},
		{"1-2e9", 1 * time.Second, 0, `"2e9": want a duration (90s, 10m) or seconds`}, // past 1e9 s
	}
	for _, tt := range tests {
		from, to, err := ParseWindow(tt.in)
		if from != tt.from || to != tt.to || errText(err) != tt.err {
			t.Errorf("ParseWindow(%q) = %v, %v, %q; want %v, %v, %q", tt.in, from, to, errText(err), tt.from, tt.to, tt.err)
		}
	}
}

func TestParseLengths(t *testing.T) {
	t.Parallel()
	const want = `: want IN:OUT tokens, such as 1024:256`
	tests := []struct {
		in       string
		inT, out int
		err      string
	}{
		{"", 1024, 256, ""},
		{"2048:128", 2048, 128, ""},
		{"2048", 0, 0, `"2048"` + want},
		{"0:10", 0, 0, `"0:10"` + want},
		{"10:-1", 0, 0, `"10:-1"` + want},
		{"a:b", 0, 0, `"a:b"` + want},
	}
	for _, tt := range tests {
		in, out, err := ParseLengths(tt.in)
		if in != tt.inT || out != tt.out || errText(err) != tt.err {
			t.Errorf("ParseLengths(%q) = %d, %d, %q; want %d, %d, %q", tt.in, in, out, errText(err), tt.inT, tt.out, tt.err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); got != f || err != nil {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	const want = `"parquet": the formats are auto, azure, vidur, mooncake, weka, weka-csv, weka-summary, sharegpt, burstgpt, servegen, csv, jsonl`
	if _, err := ParseFormat("parquet"); errText(err) != want {
		t.Errorf("ParseFormat(parquet): %q, want %q", errText(err), want)
	}
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
