package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestReport: the report of a run directory has its records' summary and
// the prompts of its own trace; a records file alone has no prompts
// unless given its trace; what cannot be read is named.
func TestReport(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"v.yaml": {Data: []byte("version: 1\nrequests: 12\nclients:\n  - {name: c, model: m, rate: 10/s, input: 100, output: 10}\n")}}
	w, err := Load(context.Background(), fsys, "v.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVirtual(Engine{Model: "llama-3.1-8b", GPU: "h100", TP: 1}, 1, "round-robin")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if _, err := Run(context.Background(), Config{Workload: w, Dir: filepath.Join(root, "run"), Virtual: v}); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := os.DirFS(root)
	for _, tt := range []struct {
		names   []string
		trace   string
		prompts bool
	}{
		{[]string{"run"}, "", true},
		{[]string{"run/records.jsonl"}, "", false},
		{[]string{"run/records.jsonl"}, "run/trace.jsonl", true},
	} {
		in, err := Report(Records{Files: files, Names: tt.names, Trace: tt.trace})
		if err != nil {
			t.Fatalf("%v: %v", tt.names, err)
		}
		if in.Summary.All.OK != 12 || len(in.Records.Records) != 12 {
			t.Errorf("%v: %d ok of %d records, want 12 of 12", tt.names, in.Summary.All.OK, len(in.Records.Records))
		}
		r := in.Records.Records[0]
		if got := in.Prompt != nil && in.Prompt(r.Client, r.Session, r.Turn) != ""; got != tt.prompts {
			t.Errorf("%v with trace %q: prompts %v, want %v", tt.names, tt.trace, got, tt.prompts)
		}
	}
	for _, tt := range []struct {
		r    Records
		want string
	}{
		{Records{Files: files, Names: []string{"none"}}, "none"},
		{Records{Files: files, Names: []string{"empty"}}, "empty holds no records.jsonl"},
		{Records{Files: files, Names: []string{"run/records.jsonl"}, Trace: "run/none.jsonl"}, "reading the trace"},
	} {
		if _, err := Report(tt.r); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Report(%v, trace %q): %v, want an error saying %q", tt.r.Names, tt.r.Trace, err, tt.want)
		}
	}
}
