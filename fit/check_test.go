package fit

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"surge/trace"
)

// poissonTraffic is n sessions of each client, Poisson at rate per
// second, with lognormal input lengths around 500 and output around 50.
func poissonTraffic(n int, rate float64, clients ...string) *Traffic {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := &Traffic{}
	for _, c := range clients {
		at := 0.0
		for range n {
			at += rng.ExpFloat64() / rate
			in := int(math.Exp(math.Log(500) + 0.5*rng.NormFloat64()))
			out := int(math.Exp(math.Log(50) + 0.5*rng.NormFloat64()))
			tr.Add(&trace.Session{Client: c, Model: "m-" + c, AtUS: int64(at * 1e6),
				Turns: []trace.Turn{{InputTokens: max(in, 1), OutputTokens: max(out, 1)}}})
		}
	}
	return tr
}

// TestTrafficAdd keeps clients in the order they first came, each with
// its first session's model, and a sample of starts in seconds.
func TestTrafficAdd(t *testing.T) {
	t.Parallel()
	var tr Traffic
	for i, c := range []string{"b", "a", "b"} {
		tr.Add(&trace.Session{Client: c, Model: c + "-model", AtUS: int64(i) * 1e6,
			Turns: []trace.Turn{{InputTokens: 10 + i, OutputTokens: 1}, {InputTokens: 20, OutputTokens: 2}}})
	}
	b := tr.Samples["b"]
	if strings.Join(tr.Order, ",") != "b,a" || tr.Models["a"] != "a-model" ||
		len(b.Times) != 2 || b.Times[1] != 2 || len(b.In) != 4 || b.In[2] != 12 || b.Out[3] != 2 {
		t.Errorf("order %q, models %v, b %+v", tr.Order, tr.Models, b)
	}
}

// TestCheck fits two Poisson clients, checks the spec and expects the
// table to set each client's original beside its fitted row, the
// fitted rate near the original.
func TestCheck(t *testing.T) {
	t.Parallel()
	tr := poissonTraffic(400, 2, "chat", "code")
	clients, err := Clients(tr, true)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := Spec("check", clients)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r, err := Check(context.Background(), &out, spec, tr, clients)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 || !strings.Contains(lines[0], "rate/s") {
		t.Fatalf("table:\n%s", out.String())
	}
	var rates []float64
	for i, want := range []string{"chat original", "chat fitted", "code original", "code fitted"} {
		f := strings.Fields(lines[i+1])
		if len(f) < 4 || f[0]+" "+f[1] != want {
			t.Fatalf("row %d: %q, want it to start %q", i+1, lines[i+1], want)
		}
		r, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			t.Fatalf("row %d: rate %q: %v", i+1, f[3], err)
		}
		rates = append(rates, r)
	}
	// The spec states each client's count: the regenerated trace has it.
	if r.Err() != nil || r.Total != [2]int{800, 800} {
		t.Errorf("totals %v, off %v; want 800 each and nothing off", r.Total, r.Off)
	}
	for i := 0; i < len(rates); i += 2 {
		if math.Abs(rates[i+1]-rates[i]) > 0.1*rates[i] {
			t.Errorf("rates %v: want each fitted rate within 10%% of the original", rates)
		}
	}
	if _, err := Check(context.Background(), &out, []byte("clients: ["), tr, clients); err == nil || !strings.Contains(err.Error(), "the fitted spec does not parse") {
		t.Errorf("a broken spec: %v", err)
	}
}

// TestCheckFlags reports a client whose regenerated count is off its
// bound, and the total: here a spec that states half of chat's count.
func TestCheckFlags(t *testing.T) {
	t.Parallel()
	tr := poissonTraffic(600, 2, "chat", "code")
	clients, err := Clients(tr, false)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Spec("check", clients)
	if err != nil {
		t.Fatal(err)
	}
	half := strings.Replace(string(y), "count: 600 ", "count: 300 ", 1)
	var out bytes.Buffer
	r, err := Check(context.Background(), &out, []byte(half), tr, clients)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Off) != 2 || !strings.Contains(r.Off[0], "client chat: 300 sessions, the trace 600") ||
		!strings.Contains(r.Off[1], "in all 900 sessions, the trace 1200") || r.Err() == nil {
		t.Errorf("off %q; want chat and the total flagged", r.Off)
	}
	if !strings.Contains(out.String(), "off: client chat") {
		t.Errorf("table without the flag:\n%s", out.String())
	}
}

// TestCheckReasoning fits requests of which about 70% of the output is
// reasoning: the spec states a reasoning law and the answer as output,
// and the regenerated share of reasoning tokens is within 3 points.
func TestCheckReasoning(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(2, 2))
	tr := &Traffic{}
	at := 0.0
	for range 2000 {
		at += r.ExpFloat64()
		out := 100 + r.IntN(900)
		tr.Add(&trace.Session{Client: "r1", AtUS: int64(at * 1e6),
			Turns: []trace.Turn{{InputTokens: 1 + r.IntN(500), OutputTokens: out, ReasoningTokens: int(float64(out) * (0.5 + 0.4*r.Float64()))}}})
	}
	clients, err := Clients(tr, false)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Spec("r1", clients)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), "    reasoning: ") {
		t.Fatalf("no reasoning law:\n%s", y)
	}
	var out bytes.Buffer
	rep, err := Check(context.Background(), &out, y, tr, clients)
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Comparisons[0]; c.ReasoningShare[0] < 0.6 || math.Abs(c.ReasoningShare[1]-c.ReasoningShare[0]) > 0.03 || c.KSOut > 0.1 {
		t.Errorf("reasoning share %.3f regenerated as %.3f, output KS %.3f\n%s", c.ReasoningShare[0], c.ReasoningShare[1], c.KSOut, out.String())
	}
}
