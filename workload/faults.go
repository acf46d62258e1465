package workload

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"surge/arrival"
	"surge/spec"
	"surge/trace"
)

// faultStream labels the RNG that picks each request's fault, apart from
// the session's own RNG, so that adding faults to a spec changes no
// prompt, length or arrival.
const faultStream uint64 = 0x6661756c // "faul"

// addFaults gives each turn of s the fault its client's faults block
// draws for it: one uniform draw per turn against the shares laid end to
// end, in the order of spec.Faults' fields.
func addFaults(seed uint64, c *client, s *trace.Session) {
	f := c.Faults
	if f == nil {
		return
	}
	r := rand.New(rand.NewPCG(mix(seed^faultStream), mix(c.key^mix(uint64(s.Index)))))
	for i := range s.Turns {
		s.Turns[i].Fault = drawFault(f, r)
	}
}

// drawFault picks one request's fault, or nil.
func drawFault(f *spec.Faults, r *rand.Rand) *trace.Fault {
	u := r.Float64()
	pick := func(share float64) bool {
		u -= share
		return u < 0
	}
	switch {
	case pick(f.EmptyPrompt):
		return &trace.Fault{Kind: trace.FaultEmptyPrompt}
	case pick(f.MalformedJSON):
		return &trace.Fault{Kind: trace.FaultMalformedJSON}
	case pick(f.InvalidParams):
		param := "max_tokens"
		if r.IntN(2) == 1 {
			param = "model"
		}
		return &trace.Fault{Kind: trace.FaultInvalidParams, Param: param}
	case pick(f.Churn):
		return &trace.Fault{Kind: trace.FaultChurn}
	case f.OverContext != nil && pick(f.OverContext.Share):
		return &trace.Fault{Kind: trace.FaultOverContext, Tokens: f.OverContext.Tokens}
	case f.Cancel != nil && pick(f.Cancel.Share):
		return &trace.Fault{Kind: trace.FaultCancel, Tokens: f.Cancel.AfterTokens, AfterUS: f.Cancel.After.Microseconds()}
	case f.SlowReader != nil && pick(f.SlowReader.Share):
		return &trace.Fault{Kind: trace.FaultSlowReader, BytesPerS: f.SlowReader.BytesPerS}
	case f.Stall != nil && pick(f.Stall.Share):
		return &trace.Fault{Kind: trace.FaultStall, StallUS: f.Stall.For.Microseconds()}
	}
	return nil
}

// withBursts returns a client's arrival process with its bursts as rate
// spikes on top.
func withBursts(c *client) arrival.Config {
	cfg := c.Arrival
	if c.Faults == nil || len(c.Faults.Bursts) == 0 {
		return cfg
	}
	cfg.Curve.Spikes = slices.Clone(cfg.Curve.Spikes)
	for _, b := range c.Faults.Bursts {
		cfg.Curve.Spikes = append(cfg.Curve.Spikes, arrival.Spike{At: b.At, Factor: b.Factor, For: b.For})
	}
	return cfg
}

// faultWindows lists the storms and bursts of every client, in order of
// time.
func faultWindows(clients []client) []trace.FaultWindow {
	var out []trace.FaultWindow
	for _, c := range clients {
		if c.Faults == nil {
			continue
		}
		for _, s := range c.Faults.Storms {
			out = append(out, trace.FaultWindow{Kind: trace.FaultStorm, Client: c.Name, AtUS: s.At.Microseconds(), Fraction: s.Fraction})
		}
		for _, b := range c.Faults.Bursts {
			out = append(out, trace.FaultWindow{Kind: trace.FaultBurst, Client: c.Name, AtUS: b.At.Microseconds(), ForUS: b.For.Microseconds(), Factor: b.Factor})
		}
	}
	slices.SortStableFunc(out, func(a, b trace.FaultWindow) int { return cmp.Compare(a.AtUS, b.AtUS) })
	return out
}
