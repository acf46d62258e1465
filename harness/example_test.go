package harness_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"testing/fstest"

	"surge/harness"
)

// A Go program loads a spec and drives the built-in engine with it,
// leaving the evidence bundle in a directory of its choosing; with
// Target set it drives that server instead.
func ExampleRun() {
	specs := fstest.MapFS{"chat.yaml": {Data: []byte(`version: 1
requests: 8
clients:
  - {name: chat, model: meta-llama/Llama-3.1-8B-Instruct, rate: 50/s, input: 64, output: 8}
`)}}
	w, err := harness.Load(context.Background(), specs, "chat.yaml", harness.LoadOptions{})
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
