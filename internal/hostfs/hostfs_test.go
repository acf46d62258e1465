package hostfs

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen: a typed path, ".." included, opens the file; "-" is Stdin,
// and an error without one.
func TestOpen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("file"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(h FS, name string) (string, error) {
		f, err := h.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	}
	if got, err := read(FS{}, filepath.ToSlash(filepath.Join(dir, "sub", "..", "a.txt"))); err != nil || got != "file" {
		t.Errorf("a path with ..: %q, %v", got, err)
	}
	if got, err := read(FS{Stdin: strings.NewReader("in")}, "-"); err != nil || got != "in" {
		t.Errorf("-: %q, %v", got, err)
	}
	if _, err := read(FS{}, "-"); err == nil {
		t.Error("- without Stdin: no error")
	}
	f, _ := FS{Stdin: strings.NewReader("")}.Open("-")
	if info, err := f.Stat(); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("stdin's Stat: %v, %v", info, err)
	}
}

// TestCreate: a file appears whole on commit(true) and not at all on
// commit(false), with nothing left beside it; "-" is stdout; a missing
// folder is said before anything is written.
func TestCreate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, ok := range []bool{true, false} {
		path := filepath.Join(dir, "out.jsonl")
		w, commit, err := Create(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, "whole")
		if _, err := os.Stat(path); err == nil {
			t.Fatalf("commit(%v): the file is in place before the commit", ok)
		}
		if err := commit(ok); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if ok != (err == nil) || ok && string(got) != "whole" {
			t.Errorf("commit(%v): file %q, %v", ok, got, err)
		}
		if left, _ := os.ReadDir(dir); len(left) != btoi(ok) {
			t.Errorf("commit(%v): %d entries left, want %d", ok, len(left), btoi(ok))
		}
		os.Remove(path)
	}
	var out bytes.Buffer
	if w, commit, err := Create("-", &out); err != nil || w != &out || commit(true) != nil {
		t.Errorf("-: not stdout (%v)", err)
	}
	if _, _, err := Create(filepath.Join(dir, "no", "such", "f"), nil); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing folder: %v", err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestWriteFile: a fill that fails leaves no file, and says which.
func TestWriteFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "r.html")
	err := WriteFile(path, func(w io.Writer) error { io.WriteString(w, "half"); return io.ErrShortWrite })
	if _, serr := os.Stat(path); err == nil || !strings.Contains(err.Error(), path) || serr == nil {
		t.Errorf("a failing fill: err %v, file left %v", err, serr == nil)
	}
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "whole"); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "whole" {
		t.Errorf("file %q, want whole", got)
	}
}
