package hostfs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Create opens the file at path for writing, or stdout for "-". A file
// is written beside its final name and renamed into place by
// commit(true); commit(false) removes it, so that a failed or interrupted
// writer never leaves a truncated file behind.
func Create(path string, stdout io.Writer) (w io.Writer, commit func(ok bool) error, err error) {
	if path == "-" {
		return stdout, func(bool) error { return nil }, nil
	}
	if info, err := os.Stat(filepath.Dir(path)); err != nil || !info.IsDir() {
		return nil, nil, fmt.Errorf("cannot write %s: folder %s does not exist", path, filepath.Dir(path))
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, nil, fmt.Errorf("creating %s: %w", path, err)
	}
	commit = func(ok bool) error {
		cerr := errors.Join(tmp.Chmod(0o644), tmp.Close())
		if !ok || cerr != nil {
			os.Remove(tmp.Name())
			return cerr
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	}
	return tmp, commit, nil
}

// WriteFile creates the file at path whole with what fill writes, or
// leaves none when fill fails.
func WriteFile(path string, fill func(io.Writer) error) error {
	w, commit, err := Create(path, nil)
	if err != nil {
		return err
	}
	err = fill(w)
	if cerr := commit(err == nil); err == nil {
		return cerr
	}
	return fmt.Errorf("writing %s: %w", path, err)
}
