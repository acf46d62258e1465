package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const scriptSpec = `version: 1
seed: 3
requests: 3
clients:
  - name: web
    model: Llama-3.1-8B
    rate: 20/s
    input: 50
    output: 4
`

// TestRunHTMLEscapesPrompts runs a trace whose prompt holds a script tag
// against the built-in engine: report.html shows the prompt among the
// slowest requests as text, never as markup.
func TestRunHTMLEscapesPrompts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := writeSpec(t, dir, "web.yaml", scriptSpec)
	tr := filepath.Join(dir, "web.jsonl")
	if code, out, e := run(t, "gen", spec, "-o", tr); code != exitOK {
		t.Fatalf("gen: exit %d\n%s%s", code, out, e)
	}
	const evil = "<script>alert(3)</script> what does this do?"
	setPrompts(t, tr, evil)
	out := filepath.Join(dir, "run")
	if code, o, e := run(t, "run", tr, "-o", out); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, o, e)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "<script>alert(3)") {
		t.Error("report.html holds the prompt's script tag as markup")
	}
	if !strings.Contains(string(page), "&lt;script&gt;alert(3)&lt;/script&gt; what does this do?") {
		t.Error("report.html does not show the prompt as text")
	}
}

// setPrompts rewrites every first turn's prompt in the trace at path.
func setPrompts(t *testing.T, path, prompt string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if len(lines) > 0 {
			var s map[string]any
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatal(err)
			}
			s["turns"].([]any)[0].(map[string]any)["prompt"] = prompt
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			line = string(b)
		}
		lines = append(lines, line)
	}
	f.Close()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
