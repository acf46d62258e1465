package virtual

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// llamaH100 is Llama-3.1-8B in BF16 on one H100.
func llamaH100(t testing.TB) Config {
	t.Helper()
	m, err := sim.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	g, err := sim.LookupGPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFor(sim.Hardware{Model: m, GPU: g, TP: 1})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestConfigForRefusesWhatDoesNotFit(t *testing.T) {
	t.Parallel()
	m, _ := sim.LookupModel("llama-3.1-70b")
	g, _ := sim.LookupGPU("l40s")
	if _, err := ConfigFor(sim.Hardware{Model: m, GPU: g, TP: 1}); err == nil {
		t.Error("70B in BF16 on one 48 GB L40S was accepted")
	}
}

// p50TTFT returns the median TTFT of the records, in µs.
func p50TTFT(recs []trace.Record) int64 {
	var v []int64
	for _, r := range recs {
		v = append(v, r.TTFTUS)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// TestPrefixSharingLowersTTFT sends 4,000-token prompts every 200 ms; in
// one run they share a 3,840-token prefix, in the other every prompt is
// distinct. Only the sharing run finds its prefix cached, so it prefills a
// tenth of the tokens and its TTFT falls.
func TestPrefixSharingLowersTTFT(t *testing.T) {
	t.Parallel()
	cfg := llamaH100(t)
	shared := strings.Repeat("abcd", 3840)
	run := func(share bool) int64 {
		var ss []*trace.Session
		for i := range 40 {
			s := session(i, time.Duration(i)*200*time.Millisecond, 4000, 10)
			own := strings.Repeat(fmt.Sprintf("%04d", i), 4000)
			if share {
				own = shared + own[:160*4]
			}
			s.Turns[0].Prompt = own
			ss = append(ss, s)
		}
		recs, _ := mustRun(t, cfg, header(0), ss)
		return p50TTFT(recs)
	}
	with, without := run(true), run(false)
	if with*3 > without {
		t.Errorf("median TTFT %d µs sharing a prefix, %d µs without; want sharing at least 3× faster", with, without)
	}
}

// throughput returns output tokens per second from first send to last end.
func throughput(recs []trace.Record) float64 {
	var tokens, last int64
	for _, r := range recs {
		tokens += int64(r.ServerOutputTokens)
		last = max(last, r.SentUS+r.E2EUS)
	}
	return float64(tokens) / (float64(last) / 1e6)
}

// TestSaturationShape sweeps the offered rate of 1,000/200-token requests
// on Llama-3.1-8B / H100. Below capacity the output throughput follows the
// offered rate (200 tokens per request) and TTFT is a prefill; past it the
// throughput plateaus while the queue, and so TTFT, grows.
func TestSaturationShape(t *testing.T) {
	t.Parallel()
	cfg := llamaH100(t)
	rates := []float64{2, 8, 32, 128, 512}
	var tput []float64
	var ttft []int64
	for _, rate := range rates {
		var ss []*trace.Session
		for i := range 300 {
			s := session(i, time.Duration(float64(i)/rate*float64(time.Second)), 1000, 200)
			s.Turns[0].Prompt = strings.Repeat(fmt.Sprintf("%04d", i), 1000) // no sharing
			ss = append(ss, s)
		}
		recs, _ := mustRun(t, cfg, header(0), ss)
		tput, ttft = append(tput, throughput(recs)), append(ttft, p50TTFT(recs))
	}
	t.Logf("rates %v req/s: output %v tok/s, p50 TTFT %v µs", rates, tput, ttft)
	if lo := 2 * 200 * 0.8; tput[0] < lo {
		t.Errorf("at 2 req/s output is %.0f tok/s, want about the offered 400", tput[0])
	}
	if tput[4] > 1.2*tput[3] {
		t.Errorf("output %.0f tok/s at 512 req/s vs %.0f at 128: no plateau", tput[4], tput[3])
	}
	if tput[3] < 4*tput[0] {
		t.Errorf("output %.0f tok/s at 128 req/s vs %.0f at 2: no growth before the plateau", tput[3], tput[0])
	}
	if ttft[4] < 10*ttft[0] {
		t.Errorf("p50 TTFT %d µs at 512 req/s vs %d at 2: no queueing past the plateau", ttft[4], ttft[0])
	}
}
