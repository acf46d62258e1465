package selftest

import (
	"strings"
	"testing"
)

func TestThousands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {999.4, "999"}, {1000, "1,000"}, {1234567.8, "1,234,568"}, {-12345, "-12,345"},
	}
	for _, tt := range tests {
		if got := thousands(tt.v); got != tt.want {
			t.Errorf("thousands(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	r := measured
	r.SeparateServer = true
	r.WriteText(&b)
	for _, want := range []string{"zero-delay server in a process of its own", "     64         10,000          640,000", "ceiling     10,000 streamed req/s, 640,000 token events/s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
