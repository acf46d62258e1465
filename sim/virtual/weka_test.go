package virtual

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"surge/sim"
	"surge/trace"
	"surge/trace/importers"
)

// TestWEKAReuse replays every 12th of the 710 conversations of the
// flattened WEKA agentic requests (main and sub-agent streams), imported
// ten times faster, through the engine (a 1M-context model on one H100,
// two conversations at a time) and checks the engine's prefix cache
// against the trace: the median over conversations of the cached share of
// prompt tokens is within 5 points of the median of the trace's own block
// reuse, seen_blocks × 64 / in_tokens (over all 710 conversations that
// median is 95.5%).
func TestWEKAReuse(t *testing.T) {
	if testing.Short() {
		t.Skip("49,334 requests: skipped in -short")
	}
	t.Parallel()
	ss := wekaCSV(t, 12, 0)
	want := wekaSeenReuse(t, 12)
	cfg := qwen1M(t)
	recs, _ := mustRun(t, cfg, header(2), ss)
	prompt, cached := make([]float64, len(ss)), make([]float64, len(ss))
	for _, r := range recs {
		if !r.OK() {
			t.Fatalf("record %+v failed", r)
		}
		prompt[r.Session] += float64(r.ServerInputTokens)
		cached[r.Session] += float64(r.CachedTokens)
	}
	engine := make([]float64, len(ss))
	for i := range ss {
		engine[i] = cached[i] / prompt[i]
	}
	slices.Sort(engine)
	got := engine[len(engine)/2]
	t.Logf("median per-conversation reuse: engine %.4f, trace %.4f (%d records)", got, want, len(recs))
	if got < want-0.05 || got > want+0.05 {
		t.Errorf("median per-conversation reuse %.4f, the trace's %.4f: want within 5 points", got, want)
	}
}

// wekaSeenReuse is the median over every every-th conversation of the
// flattened CSV of its block reuse, Σ seen_blocks·64 / Σ in_tokens.
func wekaSeenReuse(t *testing.T, every int) float64 {
	t.Helper()
	f, err := os.Open(wekaDir + "weka_agentic_requests.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var reuse []float64
	var seen, in float64
	conv := -1
	for i, r := range rows[1:] { // trace_id, …, in_tokens (6), …, seen_blocks (10)
		if i == 0 || r[0] != rows[i][0] {
			if conv >= 0 && conv%every == 0 {
				reuse = append(reuse, seen/in)
			}
			conv, seen, in = conv+1, 0, 0
		}
		s, _ := strconv.Atoi(r[10])
		n, _ := strconv.Atoi(r[6])
		seen, in = seen+float64(s*64), in+float64(n)
	}
	if conv%every == 0 {
		reuse = append(reuse, seen/in)
	}
	slices.Sort(reuse)
	return reuse[len(reuse)/2]
}

// wekaDir holds the WEKA agentic traces.
const wekaDir = "../../../shared/traces/weka-agentic/"

// wekaCSV imports every every-th conversation of the flattened WEKA CSV
// from the from-th (0-based), ten times faster, as sessions indexed in
// order. It skips tb when the file is absent.
func wekaCSV(tb testing.TB, every, from int) []*trace.Session {
	tb.Helper()
	f, err := os.Open(wekaDir + "weka_agentic_requests.csv")
	if err != nil {
		tb.Skip(err)
	}
	defer f.Close()
	var ss []*trace.Session
	n := 0
	if err := importers.WEKARequests(f, "c", importers.WEKAOptions{Speed: 10}, func(s *trace.Session) error {
		if n++; n-1 >= from && (n-1-from)%every == 0 {
			s.Index = len(ss)
			ss = append(ss, s)
		}
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return ss
}

// wekaJSON imports the WEKA conversation files, ten times faster. It
// skips tb when there are none.
func wekaJSON(tb testing.TB) []*trace.Session {
	tb.Helper()
	paths, _ := filepath.Glob(wekaDir + "trace_*.json")
	if len(paths) == 0 {
		tb.Skip("no WEKA conversation files in " + wekaDir)
	}
	var ss []*trace.Session
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			tb.Fatal(err)
		}
		s, err := importers.WEKA(f, "c", i, importers.WEKAOptions{Speed: 10})
		f.Close()
		if err != nil {
			tb.Fatal(err)
		}
		ss = append(ss, s)
	}
	return ss
}

// qwen1M is a 1M-context model on one H100.
func qwen1M(tb testing.TB) Config {
	tb.Helper()
	m, err := sim.LookupModel("qwen2.5-7b-1m")
	if err != nil {
		tb.Fatal(err)
	}
	g, err := sim.LookupGPU("h100")
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := ConfigFor(sim.Hardware{Model: m, GPU: g, TP: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}
