package content

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPromptContent samples prompts of every style and checks that they
// look like text: valid UTF-8, single spaces and no template slots in
// prose, and Python blocks with balanced brackets and sane indentation.
func TestPromptContent(t *testing.T) {
	t.Parallel()
	_, s := testSynth(t, "o200k_base")
	r := rand.New(rand.NewPCG(5, 6))
	python := 0
	for i := range 300 {
		st := append(styles(), StyleMixed)[i%5]
		p := string(s.Prompt(nil, r, st, 1+r.IntN(3000)))
		if !utf8.ValidString(p) {
			t.Fatalf("%s prompt is not valid UTF-8: %.200q", st, p)
		}
		prose, blocks := splitFences(p)
		for _, x := range prose {
			if strings.Contains(x, "  ") || strings.ContainsAny(x, "{}§") || strings.Contains(x, "\n\n\n") {
				t.Errorf("%s prose has a double space, a slot or a blank line run: %.300q", st, x)
			}
		}
		for _, b := range blocks {
			if code, ok := strings.CutPrefix(b, "python\n"); ok {
				python++
				if err := pythonShape(code); err != "" {
					t.Errorf("python block: %s:\n%s", err, code)
				}
			}
		}
	}
	if python == 0 {
		t.Error("no Python block in 300 prompts")
	}
}

// splitFences returns the text outside ``` fences and the fenced blocks
// (each starting with its info string).
func splitFences(p string) (prose, blocks []string) {
	parts := strings.Split(p, "```")
	for i, x := range parts {
		if i%2 == 0 {
			prose = append(prose, x)
		} else {
			blocks = append(blocks, x)
		}
	}
	return prose, blocks
}

// pythonShape returns what is wrong with the shape of Python code, or "":
// brackets must balance, indentation must be spaces in steps of 4 that
// deepen by one step only after a line ending in ':' and must deepen then.
func pythonShape(code string) string {
	depth := 0
	for _, c := range code {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
		if depth < 0 {
			return "a closing bracket without an opening one"
		}
	}
	if depth != 0 {
		return "unbalanced brackets"
	}
	prev, opens := 0, false
	for _, line := range strings.Split(strings.TrimSuffix(code, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		ind := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case strings.HasPrefix(strings.TrimLeft(line, " "), "\t"):
			return "a tab in the indentation"
		case ind%4 != 0:
			return "indentation not a multiple of 4"
		case opens && ind != prev+4:
			return "a block opener not followed by one deeper level"
		case !opens && ind > prev:
			return "deeper indentation without a block opener"
		}
		prev, opens = ind, strings.HasSuffix(line, ":")
	}
	if opens {
		return "ends with a block opener"
	}
	return ""
}

func TestPythonShape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code, want string // want "" when the shape is fine
	}{
		{"def f(x):\n    return x\n", ""},
		{"def f(x:\n    return x", "unbalanced brackets"},
		{"def f(x):\nreturn x", "a block opener not followed by one deeper level"},
		{"x = 1\n    y = 2", "deeper indentation without a block opener"},
		{"def f():\n   return 1", "indentation not a multiple of 4"},
		{"if x:", "ends with a block opener"},
	} {
		if got := pythonShape(tc.code); got != tc.want {
			t.Errorf("pythonShape(%q) = %q, want %q", tc.code, got, tc.want)
		}
	}
}
