package spec

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDocExamples parses every yaml block of docs/spec.md that starts with
// "version: 1": the examples in the format's documentation must be valid.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/spec.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for i, part := range strings.Split(string(data), "```yaml\n")[1:] {
		block, _, ok := strings.Cut(part, "```")
		if !ok {
			t.Fatalf("yaml block %d is not closed", i)
		}
		if !strings.HasPrefix(block, "version: 1\n") {
			continue
		}
		blocks++
		if _, err := Parse(fmt.Sprintf("docs/spec.md block %d", i), []byte(block)); err != nil {
			t.Errorf("example %d does not parse:\n%v\n%s", i, err, block)
		}
	}
	if blocks < 3 {
		t.Errorf("found %d examples, want at least 3", blocks)
	}
}
