package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"surge/fit"
)

// TestFitRoundTrip fits a spec to a trace with surge fit --check,
// generates a trace from it with surge gen, and compares the two with
// fit.Compare: mean rate within 2%, inter-arrival CV within 10%, the
// busiest minute over the mean minute within 15%, and the KS distances
// between the original and regenerated input lengths, and output lengths,
// at most 0.03 — for the Azure conversation trace and the Mooncake
// conversation trace (whose arrivals sit on a 3-second grid, CV 3). The
// Mooncake prompts share prefixes, which the spec states as a pool whose
// prompts' lengths are drawn apart from the rest of the prompt, so their
// input lengths are held to KS 0.07 (docs/fit.md, "Prefix sharing").
func TestFitRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src  string
		ksIn float64
	}{
		{"../../../shared/traces/azure-llm-2023/AzureLLMInferenceTrace_conv.csv", 0.03},
		{"../../../shared/traces/mooncake/conversation_trace.jsonl", 0.07},
	} {
		src := tt.src
		if _, err := os.Stat(src); err != nil {
			t.Skip("no shared traces")
		}
		dir := t.TempDir()
		specPath, orig, regen := filepath.Join(dir, "fit.yaml"), filepath.Join(dir, "orig.jsonl"), filepath.Join(dir, "regen.jsonl")
		for _, args := range [][]string{
			{"fit", src, "--check", "-o", specPath},
			{"import", src, "-o", orig},
			{"gen", specPath, "--no-text", "-o", regen},
		} {
			if code, _, e := run(t, args...); code != exitOK {
				t.Fatalf("%s %s: exit %d: %s", args[0], src, code, e)
			}
		}
		c := fit.Compare(sampleOf(t, orig), sampleOf(t, regen))
		t.Logf("%s: rate %.4g vs %.4g/s, CV %.3f vs %.3f, KS input %.4f, output %.4f, per-minute peak/mean %.3f vs %.3f",
			filepath.Base(src), c.Rate[0], c.Rate[1], c.CV[0], c.CV[1], c.KSIn, c.KSOut, c.PeakToMean[0], c.PeakToMean[1])
		near := func(x [2]float64, tol float64) bool { return math.Abs(x[1]-x[0]) <= tol*x[0] }
		if !near(c.Rate, 0.02) || !near(c.CV, 0.10) || !near(c.PeakToMean, 0.15) || c.KSIn > tt.ksIn || c.KSOut > 0.03 {
			t.Errorf("%s: round trip outside rate 2%%, CV 10%%, peak/mean 15%%, KS %g in and 0.03 out: %+v", filepath.Base(src), tt.ksIn, c)
		}
	}
}

// sampleOf reads the trace at path as one fit sample.
func sampleOf(t *testing.T, path string) fit.Sample {
	t.Helper()
	in, err := readTraceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fs fit.Sample
	for _, s := range in.Sessions {
		fs.Add(s)
	}
	return fs
}

// TestFitConversations fits a trace of conversations, which has no
// requests at offsets, as a closed-loop client with the concurrency its
// import gives.
func TestFitConversations(t *testing.T) {
	t.Parallel()
	weka := filepath.Join(t.TempDir(), "weka.json")
	os.WriteFile(weka, []byte(`{"id":"a","block_size":64,"hash_id_scope":"local","requests":[{"t":0,"type":"n","model":"m","in":100,"out":5,"hash_ids":[1],"think_time":0,"api_time":1}]}`), 0o644)
	code, out, e := run(t, "fit", weka, "--concurrency", "3")
	for _, want := range []string{"requests: 1\n", "concurrency: 3\n", `input: "empirical(`} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, %q; want exit %d and a spec with %q:\n%s", code, e, exitOK, want, out)
		}
	}
}

// TestFitClientsInPlace fits two ServeGen clients of each language
// folder imported over one day, one active (nearly) all day and one for
// under an hour (m-small's from 39,600 s to 41,400 s), with surge fit
// --check --strict: each client's rate stays on the trace's clock, so
// the regenerated trace holds each client's count (within 10%) and the
// total (within 2%), where the fit used to hold every client's last rate
// to the longest client's end (m-small: 7,448 requests → 508,881).
func TestFitClientsInPlace(t *testing.T) {
	t.Parallel()
	root := "../../../shared/traces/servegen/language/"
	if _, err := os.Stat(root); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("shared traces missing in CI: %v", err)
		}
		t.Skip("no shared traces")
	}
	for _, tt := range []struct{ dir, all, brief string }{
		{"m-small", "chunk-2", "chunk-28"},
		{"m-mid", "chunk-87", "chunk-39"},
		{"m-large", "chunk-55", "chunk-151"},
	} {
		t.Run(tt.dir, func(t *testing.T) {
			t.Parallel()
			dir := root + tt.dir
			tmp := t.TempDir()
			two, specPath, regen := filepath.Join(tmp, "two.jsonl"), filepath.Join(tmp, "two.yaml"), filepath.Join(tmp, "regen.jsonl")
			for _, args := range [][]string{
				{"import", dir + "/" + tt.all + "-trace.csv", dir + "/" + tt.brief + "-trace.csv", "--window", "0-24h", "-o", two},
				{"fit", two, "-o", specPath, "--check", "--strict"},
				{"gen", specPath, "--no-text", "-o", regen},
			} {
				if code, _, e := run(t, args...); code != exitOK {
					t.Fatalf("%s: exit %d: %s", args[0], code, e)
				}
			}
			orig, got := clientCounts(t, two), clientCounts(t, regen)
			total := [2]int{}
			for c, n := range orig {
				total[0], total[1] = total[0]+n, total[1]+got[c]
				if math.Abs(float64(got[c]-n)) > 0.1*float64(n) {
					t.Errorf("client %s: %d sessions regenerated, %d in the trace", c, got[c], n)
				}
			}
			if len(orig) != 2 || math.Abs(float64(total[1]-total[0])) > 0.02*float64(total[0]) {
				t.Errorf("%d sessions of %d clients regenerated, %d in the trace", total[1], len(orig), total[0])
			}
		})
	}
}

// clientCounts returns the sessions of each client of the trace at path.
func clientCounts(t *testing.T, path string) map[string]int {
	t.Helper()
	in, err := readTraceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, s := range in.Sessions {
		n[s.Client]++
	}
	return n
}

// TestFitPrefixReuse fits Mooncake's traces, whose block hashes share
// 37% (conversation) and 65% (synthetic) of their prompt tokens with
// earlier prompts, and regenerates that reuse within 5 points from the
// fitted prefix pools, as surge fit --check reports it.
func TestFitPrefixReuse(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		file  string
		reuse float64
	}{{"conversation_trace.jsonl", 37.3}, {"synthetic_trace.jsonl", 65.0}} {
		src := "../../../shared/traces/mooncake/" + tt.file
		if _, err := os.Stat(src); err != nil {
			t.Skip("no shared traces")
		}
		code, _, e := run(t, "fit", src, "--check", "-o", filepath.Join(t.TempDir(), "fit.yaml"))
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", tt.file, code, e)
		}
		var reuse []float64
		for _, line := range strings.Split(e, "\n") {
			if f := strings.Fields(line); len(f) > 2 && (f[1] == "original" || f[1] == "fitted") {
				var r float64
				if _, err := fmt.Sscanf(f[len(f)-2], "%g%%", &r); err != nil {
					t.Fatalf("%s: reuse cell %q: %v", tt.file, f[len(f)-2], err)
				}
				reuse = append(reuse, r)
			}
		}
		if len(reuse) != 2 || math.Abs(reuse[0]-tt.reuse) > 0.5 || math.Abs(reuse[1]-reuse[0]) > 5 {
			t.Errorf("%s: reuse %v%%, want %.1f%% regenerated within 5 points:\n%s", tt.file, reuse, tt.reuse, e)
		}
	}
}

// TestFitImportOptions fits an APEX-style JSON Lines file (times in
// nanoseconds) with no options, its columns guessed, and with the import
// options surge import takes (--format, --columns, --time-unit ns,
// --limit): the specs state the same rate.
func TestFitImportOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	raw := filepath.Join(dir, "raw.jsonl")
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, `{"RequestID": "r%d", "StartTimeOffset": %d, "ContextTokens": %d, "GeneratedTokens": %d}`+"\n", i, int64(i)*250_000_000+int64(i%7)*1000, 100+i%50, 10+i%9)
	}
	os.WriteFile(raw, []byte(b.String()), 0o644)
	for _, args := range [][]string{
		{"fit", raw},
		{"fit", raw, "--format", "jsonl", "--columns", "at=StartTimeOffset,input=ContextTokens,output=GeneratedTokens", "--time-unit", "ns", "--limit", "400"},
	} {
		code, out, e := run(t, args...)
		if code != exitOK || !strings.Contains(out, "count: 400 ") || !strings.Contains(out, "rate: 4.0") {
			t.Errorf("%v: exit %d, %s\n%s", args, code, e, out)
		}
	}
}

// TestFitAgainst runs surge fit --against: the second half hour of
// Azure's conversation trace against a spec fitted to its first passes
// (exit 0), the coding trace's first half hour fails (exit 1), and --json
// writes the report as JSON.
func TestFitAgainst(t *testing.T) {
	t.Parallel()
	dir := "../../../shared/traces/azure-llm-2023"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared traces not available: %v", err)
	}
	conv, code := filepath.Join(dir, "AzureLLMInferenceTrace_conv.csv"), filepath.Join(dir, "AzureLLMInferenceTrace_code.csv")
	spec := filepath.Join(t.TempDir(), "conv.yaml")
	if c, _, e := run(t, "fit", conv, "--window", "0-30m", "-o", spec); c != exitOK {
		t.Fatalf("fit: exit %d: %s", c, e)
	}
	if c, out, e := run(t, "fit", conv, "--window", "30m-60m", "--against", spec); c != exitOK || !strings.Contains(out, "the spec describes the log\n") {
		t.Errorf("the next 3 minutes: exit %d, %q:\n%s", c, e, out)
	}
	c, out, _ := run(t, "fit", code, "--window", "0-30m", "--against", spec, "--json")
	var r struct{ Off []string }
	if err := json.Unmarshal([]byte(out), &r); c != exitFailure || err != nil || len(r.Off) == 0 {
		t.Errorf("the coding trace: exit %d, report %s (%v), want exit %d and measures off", c, out, err, exitFailure)
	}
}
