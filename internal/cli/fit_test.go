package cli

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"surge/trace"
)

// TestFitRoundTrip fits a spec to a trace with surge fit, generates a
// trace from it with surge gen, and compares the two: mean rate within 2%,
// inter-arrival CV within 10%, and the KS distance between the original
// and regenerated input lengths, and output lengths, at most 0.03, and the
// busiest minute's share of the mean minute within 15% — for
// the Azure conversation trace and the Mooncake conversation trace (whose
// arrivals sit on a 3-second grid, CV 3).
func TestFitRoundTrip(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"../../../shared/traces/azure-llm-2023/AzureLLMInferenceTrace_conv.csv",
		"../../../shared/traces/mooncake/conversation_trace.jsonl",
	} {
		if _, err := os.Stat(src); err != nil {
			t.Skip("no shared traces")
		}
		dir := t.TempDir()
		specPath, orig, regen := filepath.Join(dir, "fit.yaml"), filepath.Join(dir, "orig.jsonl"), filepath.Join(dir, "regen.jsonl")
		for _, args := range [][]string{
			{"fit", src, "-o", specPath},
			{"import", src, "-o", orig},
			{"gen", specPath, "--no-text", "-o", regen},
		} {
			if code, _, e := run(t, args...); code != exitOK {
				t.Fatalf("%s %s: exit %d: %s", args[0], src, code, e)
			}
		}
		a, b := readSessions(t, orig), readSessions(t, regen)
		sa, sb := summaryOf(t, orig), summaryOf(t, regen)
		ksIn := ks2(lengths(a, true), lengths(b, true))
		ksOut := ks2(lengths(a, false), lengths(b, false))
		pa, pb := peakToMean(a), peakToMean(b)
		t.Logf("%s: rate %.4g vs %.4g/s, CV %.3f vs %.3f, KS input %.4f, output %.4f, per-minute peak/mean %.3f vs %.3f",
			filepath.Base(src), sa.Rate, sb.Rate, sa.CV, sb.CV, ksIn, ksOut, pa, pb)
		if math.Abs(pb-pa) > 0.15*pa {
			t.Errorf("%s: per-minute peak/mean %.3f, the original's %.3f: want within 15%%", filepath.Base(src), pb, pa)
		}
		if math.Abs(sb.Rate-sa.Rate) > 0.02*sa.Rate || math.Abs(sb.CV-sa.CV) > 0.10*sa.CV || ksIn > 0.03 || ksOut > 0.03 {
			t.Errorf("%s: round trip: rate %.4g vs %.4g/s (2%%), CV %.3f vs %.3f (10%%), KS input %.4f, output %.4f (≤ 0.03)",
				filepath.Base(src), sb.Rate, sa.Rate, sb.CV, sa.CV, ksIn, ksOut)
		}
	}
}

// peakToMean is the busiest whole minute's arrivals over the mean minute's.
func peakToMean(ss []*trace.Session) float64 {
	counts := map[int64]int{}
	var last int64
	for _, s := range ss {
		m := s.AtUS / 60e6
		counts[m]++
		last = max(last, m)
	}
	peak, total := 0, 0
	for m := int64(0); m < last; m++ { // whole minutes: the last one is cut short
		peak, total = max(peak, counts[m]), total+counts[m]
	}
	return float64(peak) / (float64(total) / float64(last))
}

// readSessions reads the sessions of the trace at path.
func readSessions(t *testing.T, path string) []*trace.Session {
	t.Helper()
	in, err := readTraceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return in.sessions
}

// lengths returns the sorted input (or output) lengths of ss.
func lengths(ss []*trace.Session, input bool) []float64 {
	var v []float64
	for _, s := range ss {
		for _, tu := range s.Turns {
			if input {
				v = append(v, float64(tu.InputTokens))
			} else {
				v = append(v, float64(tu.OutputTokens))
			}
		}
	}
	slices.Sort(v)
	return v
}

// ks2 is the two-sample Kolmogorov–Smirnov distance of sorted a and b.
func ks2(a, b []float64) float64 {
	var d float64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x := min(a[i], b[j])
		for i < len(a) && a[i] == x {
			i++
		}
		for j < len(b) && b[j] == x {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

// summaryOf summarises the one client of the trace at path.
func summaryOf(t *testing.T, path string) trace.StreamSummary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := trace.Summarize(r)
	if err != nil {
		t.Fatal(err)
	}
	return s.All
}
