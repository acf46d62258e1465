package fit

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"surge/trace"
)

// blockTraffic is n one-request sessions, Poisson at 2/s, of which half
// start with one of 20 shared prefixes of 5 to 30 blocks of 64 tokens and
// the other half share nothing: first prompts whose tokens a prefix cache
// holds about half of.
func blockTraffic(n int) *Traffic {
	r := rand.New(rand.NewPCG(4, 4))
	tr := &Traffic{}
	at, next := 0.0, uint64(1000)
	for range n {
		at += r.ExpFloat64() / 2
		var blocks trace.Blocks
		if r.IntN(2) == 0 {
			p := uint64(r.IntN(20))
			for b := range 5 + p {
				blocks = append(blocks, p*100+b)
			}
		}
		for range 1 + r.IntN(8) {
			blocks, next = append(blocks, next), next+1
		}
		tr.Add(&trace.Session{Client: "rag", AtUS: int64(at * 1e6),
			Turns: []trace.Turn{{InputTokens: 64*len(blocks) + 10, OutputTokens: 1 + r.IntN(200), Blocks: blocks, BlockTokens: 64}}})
	}
	return tr
}

// TestFitPrefix measures the trace's reuse, fits its sharing prompts as a
// client with a pool of system prompts and the rest as a client of their
// own, and regenerates about the trace's reuse (within 5 points) and its
// count.
func TestFitPrefix(t *testing.T) {
	t.Parallel()
	tr := blockTraffic(3000)
	clients, err := Clients(tr, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(clients) != 2 || clients[0].Name != "rag.shared" || clients[1].Name != "rag.own" || clients[0].Prefix == nil || clients[1].Prefix != nil {
		t.Fatalf("clients %v, want rag.shared with a pool and rag.own", clients)
	}
	y, err := Spec("rag", clients)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), "prefix:\n      pool: ") {
		t.Errorf("no pool in the spec:\n%s", y)
	}
	var out bytes.Buffer
	r, err := Check(context.Background(), &out, y, tr, clients)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Comparisons[0]
	if c.Reuse[0] < 0.3 || math.Abs(c.Reuse[1]-c.Reuse[0]) > 0.05 || r.Total != [2]int{3000, 3000} {
		t.Errorf("reuse %.3f regenerated as %.3f, sessions %v; want about 0.5 within 5 points, 3000\n%s", c.Reuse[0], c.Reuse[1], r.Total, out.String())
	}
}
