package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"surge/trace/importers"
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
	tr, err := FitTraffic(context.Background(), fsys, []string{"t.jsonl"}, importers.ImportOptions{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Order) != 1 || tr.Order[0] != "open" {
		t.Errorf("trace: clients %v, want [open]", tr.Order)
	}
	az, err := FitTraffic(context.Background(), fsys, []string{"azure.csv"}, importers.ImportOptions{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(az.Order) != 1 {
		t.Errorf("azure: clients %v, want one", az.Order)
	}
	if _, err := FitTraffic(context.Background(), fsys, []string{"azure.csv"}, importers.ImportOptions{Format: importers.FormatWEKA}, ""); err == nil {
		t.Error("a weka import of a CSV: no error")
	}
	if _, err := FitTraffic(context.Background(), fsys, []string{"none.csv"}, importers.ImportOptions{}, ""); err == nil || !strings.Contains(err.Error(), "none.csv") {
		t.Errorf("a missing file: %v, want an error naming it", err)
	}
}

// TestFit fits a trace, writing a summary line per client and, with
// Check, the comparison table to the log; a strict check of a spec whose
// counts hold passes.
func TestFit(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	rows.WriteString("TIMESTAMP,ContextTokens,GeneratedTokens\n")
	for i := range 600 {
		fmt.Fprintf(&rows, "2023-11-16 18:%02d:%02d.%07d,%d,%d\n", 15+i/60, i%60, (i*7919)%10000000, 100+i%37, 10+i%11)
	}
	fsys := fstest.MapFS{"az.csv": {Data: []byte(rows.String())}}
	var log strings.Builder
	spec, err := Fit(context.Background(), fsys, []string{"az.csv"}, "az", FitOptions{Check: true, Strict: true}, &log)
	if err != nil || !strings.Contains(string(spec), "count: 600 ") {
		t.Fatalf("%v\n%s", err, spec)
	}
	if !strings.Contains(log.String(), "surge fit: az: 600 arrivals") || !strings.Contains(log.String(), "az  original") {
		t.Errorf("log:\n%s", log.String())
	}
}
