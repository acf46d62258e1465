package server

import (
	"strings"
	"testing"
)

// TestFaultsHelpNamesEveryKind: the help describes every fault kind the
// parser reads, and its example parses.
func TestFaultsHelpNamesEveryKind(t *testing.T) {
	t.Parallel()
	for _, name := range faultNames {
		if !strings.Contains(FaultsHelp, "\n  "+name) {
			t.Errorf("FaultsHelp does not describe %s", name)
		}
	}
	_, example, ok := strings.Cut(FaultsHelp, "--faults '")
	example, _, _ = strings.Cut(example, "'")
	if _, err := ParseFaults(example); !ok || err != nil {
		t.Errorf("the help's example %q: %v", example, err)
	}
}
