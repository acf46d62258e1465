package importers

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"surge/trace"
)

// tracesDir holds the public traces shared by the team.
const tracesDir = "../../../shared/traces"

// sharedTrace returns the path of a shared trace file, skipping the test
// when the folder is absent.
func sharedTrace(t testing.TB, rel string) string {
	t.Helper()
	path := filepath.Join(tracesDir, rel)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no shared trace %s: %v", rel, err)
	}
	return path
}

// openShared opens a shared trace file, closed when the test ends.
func openShared(t testing.TB, rel string) *os.File {
	t.Helper()
	f, err := os.Open(sharedTrace(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// openStream opens a shared trace file with newSource.
func openStream(t testing.TB, rel string, newSource func(io.Reader) (*Stream, error)) *Stream {
	t.Helper()
	st, err := newSource(openShared(t, rel))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return st
}

// drain reads src to its end, checking every session is valid and that
// starts never go back.
func drain(t testing.TB, src Source) []*trace.Session {
	t.Helper()
	var out []*trace.Session
	for {
		s, err := src.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("after %d sessions: %v", len(out), err)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("session %d: %v", len(out), err)
		}
		if n := len(out); n > 0 && s.AtUS < out[n-1].AtUS {
			t.Fatalf("session %d at %dus after one at %dus", n, s.AtUS, out[n-1].AtUS)
		}
		out = append(out, s)
	}
}

// azure, vidur and mooncake open a reader with default options.
func azureSrc(r io.Reader) (*Stream, error)    { return NewAzure(r, Options{}) }
func vidurSrc(r io.Reader) (*Stream, error)    { return NewVidur(r, Options{}) }
func mooncakeSrc(r io.Reader) (*Stream, error) { return NewMooncake(r, Options{}), nil }
