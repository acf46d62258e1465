package harness

import (
	"context"
	"io"
	"regexp"
	"strconv"
	"testing"

	"surge/content"
	"surge/spec"
)

// TestVirtualReportsPreemptions: sim's report counts the engine's
// preemptions, none when the KV cache holds every request and some when
// it holds two of the eight running at once.
func TestVirtualReportsPreemptions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		blocks int
		some   bool
	}{{0, false}, {200, true}} {
		s, err := spec.Parse("p.yaml", []byte("version: 1\nrequests: 8\nclients:\n  - {name: c, model: m, concurrency: 8, input: 1000, output: 500, sampling: {exact_output: true}}\n"))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := content.Builtin(s.Tokenizer)
		if err != nil {
			t.Fatal(err)
		}
		synth, err := content.NewSynth(tok, content.SynthConfig{})
		if err != nil {
			t.Fatal(err)
		}
		w, err := Compile(context.Background(), s, tok, synth)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), Config{Workload: w, Records: io.Discard, Virtual: testVirtual(t, tt.blocks)})
		if err != nil {
			t.Fatal(err)
		}
		m2 := regexp.MustCompile(`engine +([0-9,]+) preemptions for 8 requests finished`).FindStringSubmatch(res.Report)
		if m2 == nil {
			t.Fatalf("%d blocks: the report has no preemption line:\n%s", tt.blocks, res.Report)
		}
		n, _ := strconv.Atoi(m2[1])
		if (n > 0) != tt.some {
			t.Errorf("%d blocks: %d preemptions reported, want some: %v", tt.blocks, n, tt.some)
		}
	}
}
