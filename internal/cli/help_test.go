package cli

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pipeline is surge's verbs in the order its help lists them.
var pipeline = []string{"validate", "gen", "inspect", "import", "fit", "run", "sim", "sweep", "report", "compare", "parity", "serve", "k8s", "selftest", "version"}

func TestVersionFlag(t *testing.T) {
	t.Parallel()
	want := versionString() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		code, out, errOut := run(t, args...)
		if code != exitOK || out != want || errOut != "" {
			t.Errorf("surge %v: exit %d, stdout %q, stderr %q; want exit 0 and %q", args, code, out, errOut, want)
		}
	}
}

// TestHelpListsVerbsInOrder checks that surge --help lists every verb, one
// line each, in pipeline order.
func TestHelpListsVerbsInOrder(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, "--help")
	if code != exitOK {
		t.Fatalf("surge --help: exit %d", code)
	}
	verb := regexp.MustCompile(`(?m)^  ([a-z0-9]+)  +\S`)
	var listed []string
	for _, m := range verb.FindAllStringSubmatch(out, -1) {
		listed = append(listed, m[1])
	}
	if strings.Join(listed, " ") != strings.Join(pipeline, " ") {
		t.Errorf("surge --help lists\n  %v\nwant\n  %v\nhelp:\n%s", listed, pipeline, out)
	}
	var verbs []string
	for _, c := range newRoot(strings.NewReader(""), nil, nil).Commands() {
		verbs = append(verbs, c.Name())
	}
	sorted := slices.Sorted(slices.Values(pipeline))
	if !slices.Equal(verbs, sorted) {
		t.Errorf("surge's verbs are %v, its help lists %v", verbs, sorted)
	}
}

// TestEveryVerbHasExamples checks that each verb's help has an Examples
// section of two or three surge commands whose flags the verb takes and
// whose files in examples/ exist.
func TestEveryVerbHasExamples(t *testing.T) {
	t.Parallel()
	specFile := regexp.MustCompile(`examples/[a-z-]+\.yaml`)
	for _, c := range newRoot(strings.NewReader(""), nil, nil).Commands() {
		lines := strings.Split(c.Example, "\n")
		if c.Example == "" || len(lines) < 2 || len(lines) > 3 {
			t.Errorf("surge %s: Example has %d lines, want 2 or 3:\n%s", c.Name(), len(lines), c.Example)
			continue
		}
		for _, line := range lines {
			for _, f := range specFile.FindAllString(line, -1) {
				if _, err := os.Stat(filepath.Join("..", "..", f)); err != nil {
					t.Errorf("surge %s: example %q: %v", c.Name(), line, err)
				}
			}
			if err := parseExample(line); err != nil {
				t.Errorf("surge %s: example %q: %v", c.Name(), line, err)
			}
		}
	}
}

// parseExample parses the flags of the surge command line begins with,
// up to a pipe or a comment, on a new root.
func parseExample(line string) error {
	line, _, _ = strings.Cut(line, "#")
	line, _, _ = strings.Cut(line, "|")
	args := strings.Fields(strings.ReplaceAll(line, "'", ""))
	if len(args) == 0 || args[0] != "surge" {
		return errors.New("does not start with surge")
	}
	c, rest, err := newRoot(strings.NewReader(""), nil, nil).Find(args[1:])
	if err != nil {
		return err
	}
	c.InitDefaultHelpFlag()
	c.InitDefaultVersionFlag()
	return c.ParseFlags(rest)
}
