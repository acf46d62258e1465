package spec

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

const minimal = "version: 1\nduration: 1m\nclients:\n  - {name: chat, model: m, rate: 5/s, input: 1k, output: 256}\n"

// TestSpecLimits checks that a spec past the size or nesting bound is
// refused with its position and the limit's name before the YAML parser
// runs, whose memory the nesting would exhaust (100,000 nested lists in
// 200 KB took gigabytes), and that a spec within them is not.
func TestSpecLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string // want "" means no limit is hit
	}{
		{"100,000 nested flow lists in 200 KB", "version: 1\nclients: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), "t.yaml:2:73: spec nests more than 64 levels deep here (spec.MaxDepth)"},
		{"nested flow mappings", "version: 1\nclients: " + strings.Repeat("{a: ", 50_000), "spec.MaxDepth"},
		{"nested block sequences on one line (- - - …)", "version: 1\nclients:\n" + strings.Repeat("- ", 50_000) + "a\n", "t.yaml:3:129: spec nests more than 64"},
		{"nested block mappings", "version: 1\nx:\n" + nestedKeys(70), "spec.MaxDepth"},
		{"2 MB spec", minimal + "x: '" + strings.Repeat("a", 2<<20) + "'\n", "t.yaml:1:1: spec is larger than 1048576 bytes (spec.MaxBytes"},
		{"nested block mappings within the bound", minimal + "x-deep:\n" + nestedKeys(40), ""},
		{"brackets in text are not nesting", minimal + "name: \"" + strings.Repeat("[", 200) + "\"\nx-note: |\n  " + strings.Repeat("[{", 200) + "\nx-plain: a" + strings.Repeat("[", 200) + "\n", ""},
		{"flow lists within the bound", minimal + "x-lists: " + strings.Repeat("[", 60) + strings.Repeat("]", 60) + "\n", ""},
		{"many documents each nested a little", strings.Repeat("---\nx: "+strings.Repeat("[", 40)+strings.Repeat("]", 40)+"\n", 10), "expected one YAML document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("t.yaml", []byte(tt.src))
			limit := err != nil && strings.Contains(err.Error(), "spec.Max")
			switch {
			case tt.want == "" && limit:
				t.Errorf("refused within the limits: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want a problem containing %q", err, tt.want)
			}
		})
	}
}

// nestedKeys returns n block mappings nested one in another, a key each.
func nestedKeys(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i+1) + "k:\n")
	}
	b.WriteString(strings.Repeat(" ", n+1) + "v\n")
	return b.String()
}

// TestNestedSpecRefusedCheaply checks the acceptance case in bytes rather
// than time, so that it holds under any CPU load: a 200 KB spec of
// 100,000 nested lists is refused with its position having allocated a
// bounded amount: the YAML scanner's tokens, about 50 MB, under the
// acceptance bound of 100 MB (parsing it took gigabytes).
func TestNestedSpecRefusedCheaply(t *testing.T) {
	src := []byte("version: 1\nclients: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("nested.yaml", src)
	runtime.ReadMemStats(&after)
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || es[0].Line != 2 {
		t.Fatalf("got %v, want one problem on line 2", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 100<<20 {
		t.Errorf("refusing the spec allocated %d bytes; want at most 100 MB", got)
	}
}

// TestReadBound checks that Read stops reading a long spec at the bound
// rather than holding all of it.
func TestReadBound(t *testing.T) {
	t.Parallel()
	r := &countingReader{n: 50 << 20}
	_, err := Read("big.yaml", r)
	if err == nil || !strings.Contains(err.Error(), "big.yaml:1:1: spec is larger than") {
		t.Errorf("got %v, want the size refused", err)
	}
	if r.read > MaxBytes+1 {
		t.Errorf("read %d bytes of a 50 MB spec; want at most %d", r.read, MaxBytes+1)
	}
	if _, err := Read("ok.yaml", strings.NewReader(minimal)); err != nil {
		t.Errorf("a minimal spec: %v", err)
	}
}

// countingReader yields n bytes of a comment and counts what was read.
type countingReader struct{ n, read int }

func (c *countingReader) Read(p []byte) (int, error) {
	k := min(len(p), c.n-c.read)
	copy(p[:k], bytes.Repeat([]byte("#"), k))
	c.read += k
	if k == 0 {
		return 0, io.EOF
	}
	return k, nil
}

// FuzzLimits checks the size and nesting bounds on text built to nest:
// any prefix, then n openers of one kind. Parse must not panic, must
// report problems with positions, and must refuse or read the text having
// allocated a bounded amount, whatever the nesting.
func FuzzLimits(f *testing.F) {
	f.Add([]byte("version: 1\nclients: "), uint16(100), byte(0))
	f.Add([]byte("version: 1\nclients:\n"), uint16(3000), byte(2))
	f.Add([]byte("x: \"a\nb: |\n  '\n"), uint16(500), byte(1))
	f.Add([]byte(minimal), uint16(64), byte(3))
	openers := []string{"[", "{a: ", "- ", "? ", "[{", "&a ", "!!map {"}
	f.Fuzz(func(t *testing.T, prefix []byte, n uint16, kind byte) {
		src := append(bytes.Clone(prefix), strings.Repeat(openers[int(kind)%len(openers)], int(n))...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse("f.yaml", src)
		runtime.ReadMemStats(&after)
		var es Errors
		if err != nil && (!errors.As(err, &es) || len(es) == 0) {
			t.Fatalf("got %T %v, want Errors", err, err)
		}
		for _, e := range es {
			if e.Line < 1 || e.Col < 1 || e.Msg == "" {
				t.Fatalf("problem without a position or message: %#v", e)
			}
		}
		// About 250 bytes a token scanned, and a parse of bounded depth.
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(1000*len(src)+(32<<20)); got > limit {
			t.Fatalf("%d bytes of spec allocated %d bytes; want at most %d", len(src), got, limit)
		}
	})
}
