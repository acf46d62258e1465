package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"surge/content"
	"surge/report"
	"surge/sim"
	"surge/sim/virtual"
	"surge/spec"
)

// TestRunVirtual: in virtual time every request of a compiled spec
// succeeds against the simulated engine, and the bundle is whole.
func TestRunVirtual(t *testing.T) {
	t.Parallel()
	s, err := spec.Parse("v.yaml", []byte("version: 1\nrequests: 20\nclients:\n  - {name: c, model: m, rate: 10/s, input: 100, output: 10}\n"))
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
	m, err := sim.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	g, err := sim.LookupGPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	hw := sim.Hardware{Model: m, GPU: g, TP: 1}
	ec, err := DefaultEngineSettings().Resolve(hw)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "sim")
	vc := virtual.Config{Engine: ec, Cost: sim.NewCostModel(hw, sim.CostParams{}), Replicas: 1}
	res, err := Run(context.Background(), Config{Workload: w, Dir: dir, Virtual: &Virtual{Config: vc, Target: "sim://x"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != nil || res.Summary.All.OK != 20 || res.Target != "sim://x" || res.Summary.Header.Target != "sim://x" {
		t.Errorf("verdict %v, %d ok, target %q, records' target %q", res.Verdict, res.Summary.All.OK, res.Target, res.Summary.Header.Target)
	}
	for _, name := range []string{"trace.jsonl", "records.jsonl", "report.txt", "report.json", "report.html", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the bundle lacks %s: %v", name, err)
		}
	}
	// The run reports the records it kept; surge report reads them from
	// the file: the same report.
	in, err := Report(Records{Files: os.DirFS(filepath.Dir(dir)), Names: []string{"sim"}, PerClient: true})
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := report.JSONEngine(&again, in.Summary, in.Engine); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "report.json")); err != nil || !bytes.Equal(got, again.Bytes()) {
		t.Errorf("report.json (%v) differs from the report of records.jsonl read back:\n%s\n%s", err, got, again.Bytes())
	}
}
