package virtual

import (
	"context"
	"strings"
	"testing"
	"time"

	"surge/sim"
	"surge/trace"
)

// stepCost charges a fixed time per step, whatever the batch.
type stepCost time.Duration

func (c stepCost) StepTime(sim.Batch) time.Duration { return time.Duration(c) }

// collect is a sink that keeps every record.
type collect struct{ recs []trace.Record }

func (c *collect) Write(r *trace.Record) error {
	c.recs = append(c.recs, *r)
	return nil
}

// session returns an open-loop single-turn session of client "c" at
// offset at, with a prompt of in tokens (4 bytes each) and out output tokens.
func session(idx int, at time.Duration, in, out int) *trace.Session {
	return &trace.Session{
		Client: "c", Index: idx, AtUS: at.Microseconds(), Model: "m", API: "chat",
		Turns: []trace.Turn{{InputTokens: in, OutputTokens: out, Prompt: strings.Repeat("abcd", in)}},
	}
}

// header returns a trace header for client "c" with the given concurrency.
func header(conc int) trace.Header {
	return trace.Header{Format: trace.Format, Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: conc}}}
}

// mustRun runs cfg and fails the test on error.
func mustRun(t testing.TB, cfg Config, h trace.Header, ss []*trace.Session) ([]trace.Record, trace.RunEnd) {
	t.Helper()
	var c collect
	end, err := Run(context.Background(), cfg, h, ss, &c)
	if err != nil {
		t.Fatal(err)
	}
	return c.recs, end
}
