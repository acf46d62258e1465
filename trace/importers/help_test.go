package importers

import (
	"strings"
	"testing"
)

// TestFormatHelpNamesEveryFormat: the help describes every format, in
// the order of Formats.
func TestFormatHelpNamesEveryFormat(t *testing.T) {
	t.Parallel()
	at := 0
	for _, f := range Formats {
		i := strings.Index(FormatHelp[at:], "\n  "+string(f))
		if i < 0 {
			t.Errorf("FormatHelp does not describe %s after the formats before it", f)
			continue
		}
		at += i + 1
	}
}
