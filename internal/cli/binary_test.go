package cli

import (
	"os"
	"testing"

	"surge/internal/testbin"
)

// binary is surge built once for the tests that run it as a process.
var binary testbin.Build

// TestMain removes the built binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	binary.Remove()
	os.Exit(code)
}

// surgeBinary returns the path of a surge binary built from this tree,
// building it on first use.
func surgeBinary(t *testing.T) string {
	t.Helper()
	return binary.Path(t, "../..")
}
