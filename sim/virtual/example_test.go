package virtual_test

import (
	"context"
	"fmt"
	"time"

	"surge/sim"
	"surge/sim/virtual"
	"surge/trace"
)

// printSink prints each record's identity and latencies.
type printSink struct{}

func (printSink) Write(r *trace.Record) error {
	fmt.Printf("session %d: sent %d µs, ttft %d µs, e2e %d µs, %d tokens\n", r.Session, r.SentUS, r.TTFTUS, r.E2EUS, r.ServerOutputTokens)
	return nil
}

// linearCost charges 5 ms per step plus 20 µs per token computed, a toy
// stand-in for sim.CostModel that keeps this example's numbers fixed.
type linearCost struct{}

func (linearCost) StepTime(b sim.Batch) time.Duration {
	n := len(b.Decode)
	for _, c := range b.Prefill {
		n += c.Tokens
	}
	return 5*time.Millisecond + time.Duration(n)*20*time.Microsecond
}

// Two requests through one replica sized for Llama-3.1-8B on an H100: the
// first prefills 1,000 tokens in one 25 ms step; the second arrives while
// the first decodes and waits for the step in progress to end.
func ExampleRun() {
	m, _ := sim.LookupModel("llama-3.1-8b")
	g, _ := sim.LookupGPU("h100")
	cfg, err := virtual.ConfigFor(sim.Hardware{Model: m, GPU: g, TP: 1})
	if err != nil {
		panic(err)
	}
	cfg.Cost = linearCost{} // normally the sim.CostModel that ConfigFor sets
	h := trace.Header{Clients: []trace.ClientInfo{{Name: "chat", Model: m.Name}}}
	var sessions []*trace.Session
	for i := range 2 {
		sessions = append(sessions, &trace.Session{Client: "chat", Index: i, AtUS: int64(i) * 50_000,
			Turns: []trace.Turn{{InputTokens: 1000, OutputTokens: 100}}})
	}
	end, err := virtual.Run(context.Background(), cfg, h, sessions, printSink{})
	if err != nil {
		panic(err)
	}
	fmt.Println("simulated", time.Duration(end.DurationUS)*time.Microsecond, "sent", end.Sent)
	// Output:
	// session 0: sent 0 µs, ttft 25000 µs, e2e 543840 µs, 100 tokens
	// session 1: sent 50000 µs, ttft 25120 µs, e2e 523960 µs, 100 tokens
	// simulated 573.96ms sent 2
}
