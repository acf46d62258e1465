package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"surge/bundle"
	"surge/report"
	"surge/sim"
	"surge/sim/virtual"
	"surge/trace"
)

// TestRunStreamed: a spec loaded to stream (surge sim) is simulated as it
// is generated, and gives the bundle the spec compiled whole gives: the
// same trace byte for byte, the same records and end line but for the
// start, the same header once its end has completed it (workload hash and
// implied reuse), and a report.json equal to the report of its records
// read back. A workload with a closed-loop client is held whole, as
// before.
func TestRunStreamed(t *testing.T) {
	t.Parallel()
	const chat = "version: 1\nduration: 20s\nseed: 3\nclients:\n  - {name: c, model: m, rate: 4/s, input: 300, output: 20, session: {kind: chat, turns: 3, think: 1s}, prefix: {pool: 2, length: 200}}\n"
	for _, tt := range []struct {
		name, spec string
		streams    bool
	}{
		{"open loop", chat, true},
		{"closed loop", "version: 1\nrequests: 12\nclients:\n  - {name: c, model: m, concurrency: 2, input: 100, output: 10}\n", false},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "w.yaml")
		if err := os.WriteFile(path, []byte(tt.spec), 0o644); err != nil {
			t.Fatal(err)
		}
		held, err := Load(context.Background(), os.DirFS(dir), "w.yaml", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lazy, err := Load(context.Background(), os.DirFS(dir), "w.yaml", LoadOptions{Stream: true})
		if err != nil {
			t.Fatal(err)
		}
		if lazy.Sessions != nil || lazy.Hash != "" {
			t.Fatalf("%s: a workload loaded to stream holds %d sessions, hash %q", tt.name, len(lazy.Sessions), lazy.Hash)
		}
		v := testVirtual(t, 0)
		heldDir, lazyDir := filepath.Join(dir, "held"), filepath.Join(dir, "lazy")
		if _, err := Run(context.Background(), Config{Workload: held, Dir: heldDir, Virtual: v}); err != nil {
			t.Fatal(err)
		}
		cfg := Config{Workload: lazy, Dir: lazyDir, Virtual: v}
		if got := streamable(&cfg); got != tt.streams {
			t.Errorf("%s: streamable %v, want %v", tt.name, got, tt.streams)
		}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if lazy.Hash != held.Hash {
			t.Errorf("%s: workload hash %s streamed, %s held", tt.name, lazy.Hash, held.Hash)
		}
		same := func(name string, clean func([]byte) []byte) {
			a, aerr := os.ReadFile(filepath.Join(heldDir, name))
			b, berr := os.ReadFile(filepath.Join(lazyDir, name))
			if aerr != nil || berr != nil || !bytes.Equal(clean(a), clean(b)) {
				t.Errorf("%s: %s differs (%v, %v):\n%s\n%s", tt.name, name, aerr, berr, clean(a)[:min(len(a), 600)], clean(b)[:min(len(b), 600)])
			}
		}
		times := regexp.MustCompile(`"(start|surge_end|end)":"[^"]*"`)
		clean := func(b []byte) []byte { return times.ReplaceAll(bytes.ReplaceAll(b, []byte(" "), nil), nil) }
		same(bundle.TraceFile, func(b []byte) []byte { return b })
		same("records.jsonl", clean)
		same("report.txt", func(b []byte) []byte {
			return regexp.MustCompile(`(?m)^.*(start|bundle|20\d\d-).*$`).ReplaceAll(b, nil)
		})
		in, err := Report(Records{Files: os.DirFS(dir), Names: []string{"lazy"}, PerClient: true})
		if err != nil {
			t.Fatal(err)
		}
		var again bytes.Buffer
		if err := report.JSONEngine(&again, in.Summary, in.Engine); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(lazyDir, "report.json")); err != nil || !bytes.Equal(got, again.Bytes()) {
			t.Errorf("%s: report.json (%v) differs from the report of records.jsonl read back", tt.name, err)
		}
		if tt.streams && (res.Summary.PrefixReuse == nil || res.Summary.PrefixReuse.Cached == 0) {
			t.Errorf("%s: implied reuse %+v, want the shared system prompts'", tt.name, res.Summary.PrefixReuse)
		}
	}
}

// TestRunStreamedInterrupted: a streamed simulation cancelled before its
// workload is all generated keeps its records, says it was interrupted,
// and leaves the trace, which it does not have whole, out of the bundle.
func TestRunStreamedInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := "version: 1\nduration: 1h\nclients:\n  - {name: c, model: m, rate: 50/s, input: 100, output: 10}\n"
	if err := os.WriteFile(filepath.Join(dir, "w.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Load(context.Background(), os.DirFS(dir), "w.yaml", LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	watch := sinkFunc(func(*trace.Record) error {
		if n++; n == 500 {
			cancel()
		}
		return nil
	})
	out := filepath.Join(dir, "run")
	res, err := Run(ctx, Config{Workload: w, Dir: out, Virtual: testVirtual(t, 0), Watch: watch})
	if err != nil {
		t.Fatal(err)
	}
	if !res.End.Interrupted || res.Summary.Records < 500 || res.Summary.Records > 50*3600/2 {
		t.Errorf("interrupted %v with %d records; want an interrupted run of those done", res.End.Interrupted, res.Summary.Records)
	}
	if _, err := os.Stat(filepath.Join(out, bundle.TraceFile)); !os.IsNotExist(err) {
		t.Errorf("the bundle of an interrupted streamed run has a trace (%v)", err)
	}
}

// testVirtual is Llama-3.1-8B on one H100 at vLLM's defaults, its KV
// cache cut to blocks when blocks > 0.
func testVirtual(t *testing.T, blocks int) *Virtual {
	t.Helper()
	m, _ := sim.LookupModel("llama-3.1-8b")
	g, _ := sim.LookupGPU("h100")
	hw := sim.Hardware{Model: m, GPU: g, TP: 1}
	ec, err := DefaultEngineSettings().Resolve(hw)
	if err != nil {
		t.Fatal(err)
	}
	if blocks > 0 {
		ec.NumBlocks, ec.MaxModelLen = blocks, blocks*ec.BlockSize
	}
	return &Virtual{Config: virtual.Config{Engine: ec, Cost: sim.NewCostModel(hw, sim.CostParams{}), Replicas: 1}, Target: "sim://x"}
}

// sinkFunc is a function as a trace.Sink.
type sinkFunc func(*trace.Record) error

func (f sinkFunc) Write(r *trace.Record) error { return f(r) }
