package sim_test

// This file is the STEADY-STATE PREDICTOR used only to fit the cost
// parameters on published measurements (docs/sim-fit.md). It is a
// closed-form stand-in for the engine, fast enough for the fit's search;
// the engine itself is validated by package surge/sim/validation
// (docs/sim-validation.md). As a test file it is not part of the package.

import (
	"math"
	"surge/sim"
)

// steadyConfig is the serving configuration the steady-state predictor
// assumes for one measured row.
type steadyConfig struct {
	MaxSeqs  int     // max_num_seqs (vLLM default 256)
	Budget   int     // max_num_batched_tokens (vLLM V1 default 8192)
	MemUtil  float64 // gpu_memory_utilization
	ISL, OSL int     // input and output tokens per request
	Clients  int     // closed-loop concurrency; 0 for offline (unbounded)
	// ReserveFull admits a request only if KV blocks for isl+osl are free
	// (TensorRT-LLM's GUARANTEED_NO_EVICT); otherwise the mean occupancy
	// isl+osl/2 counts (vLLM, which preempts when blocks run out).
	ReserveFull bool
}

// steadyState is the predictor's answer for one configuration. Times are in
// seconds, throughputs per second.
type steadyState struct {
	Batch      int     // sequences decoding concurrently, B
	ITLMean    float64 // mean inter-token latency = mean step time T
	ITLMedian  float64 // step time without a prefill chunk when most steps have none
	TTFT       float64 // prefill of isl (chunked, sharing steps with B−1 decodes) + queueing
	OutputTPS  float64 // output tokens/s
	RequestTPS float64 // requests/s
}

// predictSteady computes the steady state of a continuous-batching server:
//
//	B      = min(clients or ∞, max_num_seqs, ⌊KV tokens / (isl + osl/2)⌋)
//	T0     = StepTime(B decodes at context isl + osl/2)
//	P      = Σ_chunks [StepTime(B decodes + chunk) − T0]  (marginal cost of one prefill,
//	         isl split in chunks of the token budget)
//	r      = B/osl                                      (prefills per step in steady state)
//	T      = T0 + r·P                                   (mean step = mean ITL)
//	TTFT0  = Σ_chunks StepTime(B−1 decodes + chunk)
//	cycle  = TTFT0 + (osl−1)·T                          (one request's service time)
//	X      = B/cycle requests/s; output tokens/s = X·osl
//	TTFT   = TTFT0 + prefillWait(X, TTFT0, B)
//
// With more clients than B, the rest queue: by Little's law each client
// cycle is clients/X, so TTFT = TTFT0 + clients/X − cycle.
func predictSteady(c *sim.CostModel, cfg steadyConfig) steadyState {
	hw := c.Hardware()
	ctx := cfg.ISL + cfg.OSL/2
	need := ctx
	if cfg.ReserveFull {
		need = cfg.ISL + cfg.OSL
	}
	bMax := cfg.MaxSeqs
	if kv := hw.KVTokens(cfg.MemUtil) / max(need, 1); kv < bMax {
		bMax = max(kv, 1)
	}
	b := bMax
	if cfg.Clients > 0 {
		b = min(cfg.Clients, bMax)
	}
	dec := make([]int, b)
	for i := range dec {
		dec[i] = ctx
	}
	t0 := c.StepTime(sim.Batch{Decode: dec}).Seconds()
	chunks := chunkPrompt(cfg.ISL, cfg.Budget-b)
	var extra, ttft float64
	pre := make([]sim.Chunk, 1)
	for _, ch := range chunks {
		pre[0] = ch
		extra += c.StepTime(sim.Batch{Prefill: pre, Decode: dec}).Seconds() - t0
		ttft += c.StepTime(sim.Batch{Prefill: pre, Decode: dec[:b-1]}).Seconds()
	}
	r := float64(b) / float64(cfg.OSL)
	t := t0 + r*extra
	med := t0
	if r*float64(len(chunks)) > 0.5 {
		med = t0 + extra/float64(len(chunks))
	}
	cycle := ttft + float64(cfg.OSL-1)*t
	x := float64(b) / cycle
	ttft += prefillWait(x, ttft, b)
	if cfg.Clients > b {
		ttft += float64(cfg.Clients)/x - cycle
	}
	return steadyState{Batch: b, ITLMean: t, ITLMedian: med, TTFT: ttft, OutputTPS: x * float64(cfg.OSL), RequestTPS: x}
}

// prefillWait is the mean time a new request waits for earlier requests'
// prefills, treating prefill as an M/D/1 server of service time s fed at
// the request rate x by the other b−1 running clients:
//
//	ρ = x·s·(b−1)/b,  W = ρ·s / (2(1−ρ))   (capped at ρ = 0.95)
func prefillWait(x, s float64, b int) float64 {
	rho := math.Min(0.95, x*s*float64(b-1)/float64(b))
	return rho * s / (2 * (1 - rho))
}

// chunkPrompt splits n prompt tokens into chunks of at most budget tokens,
// each recording the tokens before it as context.
func chunkPrompt(n, budget int) []sim.Chunk {
	budget = max(budget, 1)
	out := make([]sim.Chunk, 0, (n+budget-1)/budget)
	for done := 0; done < n; done += budget {
		out = append(out, sim.Chunk{Tokens: min(budget, n-done), Context: done})
	}
	return out
}

// relErr returns (pred − meas)/meas.
func relErr(pred, meas float64) float64 { return (pred - meas) / meas }

// absLogErr is |ln(pred/meas)|, the symmetric error the fit minimises.
func absLogErr(pred, meas float64) float64 { return math.Abs(math.Log(pred / meas)) }
