package sim_test

// This file holds the STATIC-BATCH and OPERATOR predictors used only to
// check the cost model against published step- and kernel-level
// measurements (docs/sim-fit.md): Splitwise's static batches and
// Vidur's GEMM profiles. Like predictSteady they are closed-form, and as a
// test file they are not part of the package.

import (
	"surge/sim"
	"time"
)

// staticPrefill is the time to prefill a static batch of b identical
// prompts of isl tokens. A static batch is admitted whole and not chunked
// by a token budget, so it is one step of b chunks of isl tokens at
// context 0:
//
//	T = StepTime(b × Chunk{isl, 0})   (n = b·isl tokens, b sequences)
func staticPrefill(c *sim.CostModel, b, isl int) time.Duration {
	pre := make([]sim.Chunk, b)
	for i := range pre {
		pre[i] = sim.Chunk{Tokens: isl}
	}
	return c.StepTime(sim.Batch{Prefill: pre})
}

// staticDecode is the mean decode step of a static batch of b identical
// sequences that each decode osl tokens after an isl-token prompt. Step k
// (k = 0 … osl−1) decodes b sequences holding isl + k tokens:
//
//	T = (1/osl) · Σ_k StepTime(b decodes at context isl + k)
//
// It returns 0 when osl < 1.
func staticDecode(c *sim.CostModel, b, isl, osl int) time.Duration {
	if osl < 1 {
		return 0
	}
	dec := make([]int, b)
	var sum time.Duration
	for k := range osl {
		for i := range dec {
			dec[i] = isl + k
		}
		sum += c.StepTime(sim.Batch{Decode: dec})
	}
	return sum / time.Duration(osl)
}

// opShape is one linear layer of a transformer block at TP1: an n×In by
// In×Out matrix product for n tokens.
type opShape struct{ In, Out int }

// opShapes returns the layer shapes of m's linear operators, keyed by
// Vidur's operator names: attn_pre_proj is the fused QKV projection
// h → (n_q + 2·n_kv)·d, mlp_up_proj the fused gate and up projections
// h → 2·I, mlp_down_proj I → h. For an MoE model the MLP shapes are one
// expert's.
func opShapes(m sim.Model) map[string]opShape {
	return map[string]opShape{
		"attn_pre_proj": {m.Hidden, (m.Heads + 2*m.KVHeads) * m.HeadDim},
		"mlp_up_proj":   {m.Hidden, 2 * m.Intermediate},
		"mlp_down_proj": {m.Intermediate, m.Hidden},
	}
}
