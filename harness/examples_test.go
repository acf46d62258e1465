package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"surge/harness"
	"surge/metrics"
)

// exampleCommand is a `surge run` or `surge sim` line of an example's
// header comment, with the length it says the run takes ("~40 s").
var exampleCommand = regexp.MustCompile(`^#\s+surge (run|sim) (examples/\S+\.yaml)([^#]*)(?:#.*?~(\d+) (s|min))?`)

// TestExamples runs every example as its header says (surge run against
// the built-in engine, here in virtual time, or surge sim) and checks
// that each SLO reaches a verdict, pass or fail, never "not enough
// samples", and that a run lasts about the time its header states.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates every example")
	}
	t.Parallel()
	names, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, name := range names {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(text), "\n") {
			m := exampleCommand.FindStringSubmatch(line)
			if m == nil || strings.Contains(m[3], "--target") {
				continue
			}
			t.Run(strings.Join(strings.Fields(m[1]+" "+m[2]+m[3]), " "), func(t *testing.T) {
				t.Parallel()
				checkExample(t, m)
			})
		}
	}
}

// checkExample runs the example command m (exampleCommand's match) in
// virtual time and checks its SLO verdicts and length.
func checkExample(t *testing.T, m []string) {
	verb, path, flags := m[1], m[2], strings.Fields(m[3])
	w, err := harness.Load(context.Background(), os.DirFS(".."), path, harness.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eng := harness.Engine{GPU: harness.DefaultEngineGPU, TP: 1}
	for i := 0; i+1 < len(flags); i += 2 {
		switch flags[i] {
		case "--engine-model", "--model":
			eng.Model = flags[i+1]
		case "--gpu":
			eng.GPU = flags[i+1]
		case "--tp":
			eng.TP, _ = strconv.Atoi(flags[i+1])
		case "--speculative-tokens":
			eng.Settings.SpeculativeTokens, _ = strconv.Atoi(flags[i+1])
		case "--speculative-method":
			eng.Settings.SpeculativeMethod = flags[i+1]
		default:
			t.Fatalf("flag %s: not one this test knows", flags[i])
		}
	}
	if eng.Model == "" {
		eng.Model = w.Header.Clients[0].Model
	}
	if _, err := harness.EngineModel(eng.Model, ""); err != nil {
		t.Fatal(err)
	}
	v, err := harness.NewVirtual(eng, 1, "round-robin")
	if err != nil {
		t.Fatal(err)
	}
	res, err := harness.Run(context.Background(), harness.Config{Workload: w, Virtual: v, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Summary.All.SLOs) == 0 {
		t.Errorf("%s has no SLO", path)
	}
	if eng.Settings.SpeculativeTokens > 0 && res.Summary.SpecDecode == nil {
		t.Errorf("%s with drafts reports no speculative decoding", path)
	}
	for _, ch := range res.Summary.All.SLOs {
		if ch.Verdict != metrics.VerdictPass && ch.Verdict != metrics.VerdictFail {
			t.Errorf("%s p%g: %s (%d of %d requests over the bound; %d more needed)", ch.Metric, ch.Percentile, ch.Verdict, ch.Exceeded, ch.Requests, ch.NeedMore)
		}
	}
	took := time.Duration(res.Summary.DurationUS) * time.Microsecond
	t.Logf("%d requests in %v; SLOs %s", res.Summary.All.Sent, took, verdicts(res.Summary.All.SLOs))
	if verb != "run" {
		return
	}
	if m[4] == "" {
		t.Fatalf("the header does not say how long %q takes (\"~40 s\", \"~5 min\")", m[0])
	}
	n, _ := strconv.Atoi(m[4])
	stated := time.Duration(n) * time.Second
	if m[5] == "min" {
		stated *= 60
	}
	if took < stated/2 || took > stated*5/4 {
		t.Errorf("the run took %v; the header says ~%v", took, stated)
	}
}

// verdicts lists each SLO's verdict.
func verdicts(checks []metrics.SLOCheck) string {
	var s []string
	for _, ch := range checks {
		s = append(s, ch.Metric+" p"+strconv.FormatFloat(ch.Percentile, 'g', -1, 64)+" "+ch.Verdict)
	}
	return strings.Join(s, ", ")
}
