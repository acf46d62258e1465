package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// binary is surge built once for the tests that run it as a process.
var binary struct {
	once      sync.Once
	dir, path string
	err       error
	out       []byte
}

// TestMain removes the built binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// surgeBinary returns the path of a surge binary built from this tree,
// building it on first use.
func surgeBinary(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		binary.dir, binary.err = os.MkdirTemp("", "surge-bin")
		if binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "surge")
		binary.out, binary.err = exec.Command("go", "build", "-o", binary.path, "../../cmd/surge").CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("building surge: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}
