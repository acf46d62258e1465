package harness

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

// TestFitTraffic: a surge trace is read as it is, a public trace through
// the importers, and a format that does not apply is a ConfigError.
func TestFitTraffic(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"a.yaml": {Data: []byte(loadSpecText)}}
	w, err := Load(context.Background(), fsys, "a.yaml", LoadOptions{NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	fsys["t.jsonl"] = &fstest.MapFile{Data: traceOf(t, w)}
	fsys["azure.csv"] = &fstest.MapFile{Data: []byte("TIMESTAMP,ContextTokens,GeneratedTokens\n" +
		"2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:50.9951690,396,109\n2023-11-16 18:15:51.6981090,879,143\n")}
	tr, err := FitTraffic(fsys, []string{"t.jsonl"}, "auto")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Order) != 1 || tr.Order[0] != "open" {
		t.Errorf("trace: clients %v, want [open]", tr.Order)
	}
	az, err := FitTraffic(fsys, []string{"azure.csv"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(az.Order) != 1 {
		t.Errorf("azure: clients %v, want one", az.Order)
	}
	if _, err := FitTraffic(fsys, []string{"azure.csv"}, "weka"); err == nil {
		t.Error("a weka import of a CSV: no error")
	}
	if _, err := FitTraffic(fsys, []string{"none.csv"}, ""); err == nil || !strings.Contains(err.Error(), "none.csv") {
		t.Errorf("a missing file: %v, want an error naming it", err)
	}
}
