package harness_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"surge/content"
	"surge/harness"
	"surge/spec"
)

// A Go program compiles a spec and drives the built-in engine with it,
// leaving the evidence bundle in a directory of its choosing.
func ExampleRun() {
	s, err := spec.Parse("chat.yaml", []byte(`version: 1
requests: 8
clients:
  - {name: chat, model: meta-llama/Llama-3.1-8B-Instruct, rate: 50/s, input: 64, output: 8}
`))
	if err != nil {
		log.Fatal(err)
	}
	tok, err := content.Builtin(s.Tokenizer)
	if err != nil {
		log.Fatal(err)
	}
	synth, err := content.NewSynth(tok, content.SynthConfig{})
	if err != nil {
		log.Fatal(err)
	}
	w, err := harness.Compile(context.Background(), s, tok, synth)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "surge-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	res, err := harness.Run(context.Background(), harness.Config{Workload: w, Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d requests succeeded; verdict %v\n", res.Summary.All.OK, res.Summary.All.Sent, res.Verdict)
	// Output: 8 of 8 requests succeeded; verdict <nil>
}
