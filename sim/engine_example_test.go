package sim_test

import (
	"fmt"
	"time"

	"surge/sim"
)

// stepCost charges 10ms per step, whatever the batch.
type stepCost struct{}

func (stepCost) StepTime(sim.Batch) time.Duration { return 10 * time.Millisecond }

// The caller owns the clock: it calls Step at now and moves now to the end
// of the step. In virtual time that is all; a real-time server would sleep
// until now+Duration before delivering the events.
func ExampleEngine_Step() {
	e, err := sim.NewEngine(sim.EngineConfig{MaxNumBatchedTokens: 64}, stepCost{})
	if err != nil {
		panic(err)
	}
	if err := e.Add(&sim.Request{ID: 1, PromptLen: 100, OutputLen: 2}); err != nil {
		panic(err)
	}
	var now time.Duration
	for !e.Idle() {
		res := e.Step(now)
		now += res.Duration
		for _, ev := range res.Events {
			fmt.Println(ev.Time, ev.ID, ev.Kind, ev.Tokens)
		}
	}
	err = e.Add(&sim.Request{ID: 2, PromptLen: 200_000, OutputLen: 1})
	fmt.Println(err)
	// Output:
	// 10ms 1 scheduled 0
	// 20ms 1 first_token 1
	// 30ms 1 token 2
	// 30ms 1 finished 2
	// adding request 2: This model's maximum context length is 131072 tokens. However, you requested 200001 tokens (200000 in the messages, 1 in the completion). Please reduce the length of the messages or completion.
}
