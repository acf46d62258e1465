package workload

import (
	"bytes"
	"math"
	"testing"

	"surge/trace"
)

const faultSpec = `version: 1
seed: 7
duration: 200s
clients:
  - name: api
    model: m
    rate: 50/s
    input: 20
    output: 5
    faults:
      empty_prompt: 2%
      invalid_params: 4%
      cancel: {share: 10%, after_tokens: 3}
      storm: {at: 100s, fraction: 50%}
      burst: {at: 50s, for: 20s, factor: 4}
`

// TestFaults checks the faults a spec injects: per-request shares near
// their targets (within 5 standard deviations of a binomial count), the
// fault parameters carried, the burst quadrupling arrivals in its window,
// the storm and burst in the header, and prompts left as they are
// without faults.
func TestFaults(t *testing.T) {
	t.Parallel()
	_, ss := generate(t, parse(t, faultSpec), Options{NoText: true})
	counts := map[string]int{}
	params := map[string]int{}
	var inBurst, before int
	for _, s := range ss {
		if f := s.Turns[0].Fault; f != nil {
			counts[f.Kind]++
			if f.Kind == trace.FaultInvalidParams {
				params[f.Param]++
			}
			if f.Kind == trace.FaultCancel && f.Tokens != 3 {
				t.Fatalf("cancel fault %+v, want after 3 tokens", f)
			}
		}
		switch at := s.AtUS; {
		case at >= 50e6 && at < 70e6:
			inBurst++
		case at >= 20e6 && at < 40e6:
			before++
		}
	}
	n := float64(len(ss))
	for kind, share := range map[string]float64{trace.FaultEmptyPrompt: 0.02, trace.FaultInvalidParams: 0.04, trace.FaultCancel: 0.1} {
		want := n * share
		if math.Abs(float64(counts[kind])-want) > 5*math.Sqrt(want*(1-share)) {
			t.Errorf("%s: %d of %.0f requests, want about %.0f", kind, counts[kind], n, want)
		}
	}
	if params["max_tokens"] == 0 || params["model"] == 0 {
		t.Errorf("invalid params %v: want both kinds", params)
	}
	if r := float64(inBurst) / float64(before); r < 3.5 || r > 4.5 {
		t.Errorf("%d arrivals in the burst's 20 s, %d in 20 s before it: ratio %.2f, want about 4", inBurst, before, r)
	}
	tok, synth := o200k(t)
	g, err := New(parse(t, faultSpec), tok, synth, Options{NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	w := g.Header().FaultWindows
	if len(w) != 2 || w[0].Kind != trace.FaultBurst || w[0].AtUS != 50e6 || w[0].ForUS != 20e6 || w[1].Kind != trace.FaultStorm || w[1].Fraction != 0.5 {
		t.Errorf("fault windows %+v", w)
	}
}

// TestFaultsLeaveContentAlone checks that adding per-request faults to a
// spec changes no prompt, length or arrival: only the faults differ.
func TestFaultsLeaveContentAlone(t *testing.T) {
	t.Parallel()
	const plain = "version: 1\nseed: 3\nrequests: 200\nclients:\n  - name: a\n    model: m\n    rate: 5/s\n    input: {dist: uniform, min: 10, max: 300}\n    output: 8\n"
	_, a := generate(t, parse(t, plain), Options{})
	_, b := generate(t, parse(t, plain+"    faults: {empty_prompt: 30%, churn: 30%}\n"), Options{})
	faulted := 0
	for i := range a {
		if b[i].Turns[0].Fault != nil {
			faulted++
			b[i].Turns[0].Fault = nil
		}
		var x, y bytes.Buffer
		wa, _ := trace.NewWriter(&x, trace.Header{})
		wb, _ := trace.NewWriter(&y, trace.Header{})
		wa.Write(a[i])
		wb.Write(b[i])
		wa.Close()
		wb.Close()
		if !bytes.Equal(x.Bytes(), y.Bytes()) {
			t.Fatalf("session %d differs beyond its fault:\n%s\n%s", i, x.Bytes(), y.Bytes())
		}
	}
	if faulted < 80 || faulted > 160 {
		t.Errorf("%d of 200 requests faulted, want about 120", faulted)
	}
}
