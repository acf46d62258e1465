package spec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics, that it returns either a spec
// or Errors with positions, and that an accepted spec's canonical form
// parses back to itself.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", "version: 1", "- a", "{", "a: &a [*a]", "a: &a {<<: *a}", "version: 1\n---\n",
		"version: 1\nclients: [*x]", "version: !!str 1\n", "version: 1\nclients:\n  - <<: [*a, 1]\n",
		"version: 1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 1/s, input: 'mixture(1*fixed(value=1)', output: 1}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("f.yaml", data)
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 || s != nil {
				t.Fatalf("got %T %v and spec %v; want non-empty Errors and no spec", err, err, s)
			}
			for _, e := range es {
				if e.Line < 1 || e.Col < 1 || e.File != "f.yaml" || e.Msg == "" {
					t.Fatalf("problem without a position or message: %#v", e)
				}
			}
			return
		}
		once := s.Canonical()
		s2, err := Parse("canonical", once)
		if err != nil {
			t.Fatalf("canonical form does not parse: %v\n%s", err, once)
		}
		if twice := s2.Canonical(); !bytes.Equal(once, twice) {
			t.Fatalf("canonical form is not a fixed point:\n%s\nthen\n%s", once, twice)
		}
	})
}
