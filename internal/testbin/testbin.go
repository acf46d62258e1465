// Package testbin holds what the tests of several packages share: the
// surge command built once for tests that run it as a process, as a user
// would, and a context that interrupts a run at a chosen check
// (Countdown).
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Build is surge built from a module's source on first use. Its zero value
// is ready; a package's tests share one and Remove it after they ran.
type Build struct {
	once      sync.Once
	dir, path string
	err       error
	out       []byte
}

// Path returns the path of surge built from the module at root (its
// cmd/surge), building it the first time; a failed build fails t.
func (b *Build) Path(t testing.TB, root string) string {
	t.Helper()
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "surge-bin")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "surge")
		cmd := exec.Command("go", "build", "-o", b.path, "./cmd/surge")
		cmd.Dir = root
		b.out, b.err = cmd.CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("building surge: %v\n%s", b.err, b.out)
	}
	return b.path
}

// Remove deletes the built binary, if there is one.
func (b *Build) Remove() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}
