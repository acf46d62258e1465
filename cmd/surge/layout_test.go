package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the module's root, two levels above this package.
const root = "../.."

// packages lists the module's package directories (those with a non-test
// Go file), relative to root, leaving out bench/ and testdata.
func packages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bench" || name == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); !slices.Contains(dirs, rel) {
			dirs = append(dirs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	return dirs
}

// tablePackage finds the package named in the first cell of a row of
// docs/architecture.md's package table.
var tablePackage = regexp.MustCompile("^\\| `([a-z0-9/]+)` \\|")

// TestArchitectureTable: docs/architecture.md's package table names every
// package of the module, and only those.
func TestArchitectureTable(t *testing.T) {
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var documented []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := tablePackage.FindStringSubmatch(sc.Text()); m != nil {
			documented = append(documented, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(documented)
	have := packages(t)
	for _, p := range have {
		if !slices.Contains(documented, p) {
			t.Errorf("package %s is missing from docs/architecture.md's table", p)
		}
	}
	for _, p := range documented {
		if !slices.Contains(have, p) {
			t.Errorf("docs/architecture.md's table names %s, which is not a package", p)
		}
	}
}

// TestLayout: at most 16 top-level folders hold importable packages (the
// pipeline's stages); tools that are not API live under internal/.
func TestLayout(t *testing.T) {
	var top []string
	for _, p := range packages(t) {
		first, _, _ := strings.Cut(p, "/")
		if first != "internal" && first != "cmd" && !slices.Contains(top, first) {
			top = append(top, first)
		}
	}
	if len(top) > 16 {
		t.Errorf("%d top-level package folders, want at most 16: %v", len(top), top)
	}
}

// maxCLILines bounds internal/cli's non-test Go lines: the command line
// keeps flags, verbs, exit codes and printing, and the library does
// everything they start.
const maxCLILines = 2500

// TestCLIIsThin: internal/cli, without its tests, is at most
// maxCLILines lines.
func TestCLIIsThin(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "internal", "cli", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(b), "\n")
	}
	if lines > maxCLILines {
		t.Errorf("internal/cli has %d non-test lines, want at most %d: move what is not flags, verbs, exit codes or printing into the library", lines, maxCLILines)
	}
}
