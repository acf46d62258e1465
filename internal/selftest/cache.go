package selftest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Save writes r to path as JSON, creating its directory; the file is
// replaced whole (written aside, then renamed), so a reader never sees it
// half written.
func Save(path string, r Result) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the self-test: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("saving the self-test: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".selftest-*.json")
	if err != nil {
		return fmt.Errorf("saving the self-test: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing left to remove
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving the self-test to %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving the self-test to %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving the self-test: %w", err)
	}
	return nil
}

// Load reads a self-test saved by Save. A missing file is an error that
// satisfies errors.Is(err, fs.ErrNotExist).
func Load(path string) (Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Result{}, fmt.Errorf("loading the self-test: %w", err)
	}
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return Result{}, fmt.Errorf("loading the self-test from %s: %w", path, err)
	}
	return r, nil
}

// Current reports whether r was measured by this build (version) on a
// machine with as many CPUs as this one, and can stand for it.
func (r Result) Current(version string) bool {
	return r.Version == version && r.CPUs == runtime.NumCPU() && len(r.Points) > 0
}
