package sim

import (
	"math"
	"time"
)

// CostModel turns a Batch into a step duration for one Hardware. It holds
// only constants derived at construction, so StepTime is safe for
// concurrent use and does not allocate.
type CostModel struct {
	hw Hardware
	p  CostParams

	layers     float64
	tp         float64
	linFLOPs   float64 // FLOPs per token in the layers, per GPU: 2·L·(attn + k·ffn)/TP
	headFLOPs  float64 // LM-head FLOPs per sequence producing logits, per GPU: 2·h·V/TP
	denseBytes float64 // bytes read every step, per GPU: (L·attn·b_w + h·V·b_a)/TP
	ffnBytes   float64 // bytes of one routed FFN (expert) across its layers, per GPU: (L − L_d)·3hI·b_w/TP
	experts    float64 // E (1 for dense)
	routeMiss  float64 // 1 − k/E, probability a token skips a given expert
	attnFLOPs  float64 // decode attention FLOPs per (token · context position), per GPU: 4·L·n_q·d/TP
	preFLOPs   float64 // the same in prefill (they differ for MLA)
	kvBytes    float64 // KV bytes per token per GPU
	// window is the sliding-window layers' span in tokens (0: none);
	// winFLOPs and winBytes are attnFLOPs and kvBytes of those layers,
	// which the three fields above then leave out.
	window                     float64
	winPre, winFLOPs, winBytes float64
	linRate                    float64 // η_c · peak FLOP/s at the weight precision
	headRate                   float64 // η_c · peak FLOP/s at the activations' precision (the LM head's)
	attnRate                   float64 // η_a · peak BF16 FLOP/s
	memRate                    float64 // η_m · HBM bytes/s
	comm                       allReduce
	fixedPerStp                float64 // c_step + c_layer·L, seconds
}

// NewCostModel prepares the step-time model of hw with parameters p. A zero
// CostParams means DefaultCostParams; non-positive efficiencies are
// replaced by their defaults. hw's precisions must pass CheckPrecision
// (weights the GPU has no tensor cores for would take forever).
func NewCostModel(hw Hardware, p CostParams) *CostModel {
	p = p.withDefaults()
	m := hw.Model
	c := &CostModel{hw: hw, p: p, layers: float64(m.Layers), tp: hw.tp(), experts: m.ffnCount()}
	bw, act := hw.layerPrecision().Bytes(), hw.Weights.Activations()
	c.linFLOPs = 2 * m.layerParams(m.activeFFNs()) / c.tp
	c.headFLOPs = 2 * m.LMHeadParams() / c.tp
	// Read every step whatever the routing: attention, dense FFNs and
	// shared experts, and the LM head.
	always := c.layers*m.AttentionParams() + m.fixedFFNParams()
	if !m.IsMoE() {
		always = m.layerParams(1)
	}
	c.denseBytes = (always*bw + m.LMHeadParams()*act.Bytes()) / c.tp
	if m.IsMoE() {
		c.ffnBytes = m.expertLayers() * m.ExpertParams() * hw.Weights.Bytes() / c.tp
	}
	c.routeMiss = 1 - m.activeFFNs()/c.experts
	pre, dec := m.AttentionFLOPs()
	full := float64(m.fullLayers())
	c.preFLOPs, c.attnFLOPs = full*pre/c.tp, full*dec/c.tp
	c.kvBytes = hw.KVBytesPerToken()
	if m.SlidingLayers > 0 && m.SlidingWindow > 0 {
		c.window = float64(m.SlidingWindow)
		sl := float64(m.SlidingLayers)
		c.winPre, c.winFLOPs, c.winBytes = sl*pre/c.tp, sl*dec/c.tp, hw.WindowKVBytesPerToken()
	}
	c.linRate = p.EtaCompute * hw.GPU.FLOPS(hw.Weights)
	c.headRate = p.EtaCompute * hw.GPU.FLOPS(act)
	c.attnRate = p.EtaAttention * hw.GPU.BF16FLOPS
	c.memRate = p.EtaMemory * hw.GPU.HBMBW
	c.comm = newAllReduce(hw, p)
	c.fixedPerStp = p.StepOverhead.Seconds() + p.LayerOverhead.Seconds()*c.layers
	return c
}

// Hardware returns the hardware the model was built for.
func (c *CostModel) Hardware() Hardware { return c.hw }

// Params returns the parameters in use (after defaults were applied).
func (c *CostModel) Params() CostParams { return c.p }

// StepTime returns the duration of one engine step running b. An empty
// batch takes no time. The formula is in the package documentation.
func (c *CostModel) StepTime(b Batch) time.Duration {
	var n, preFLOPs, preKV, decKV, verified float64
	for _, chunks := range [...][]Chunk{b.Prefill, b.Verify} {
		for _, ch := range chunks {
			t, ctx := float64(ch.Tokens), float64(ch.Context)
			n += t
			preFLOPs += t * (ctx + (t+1)/2) // Σ_{i=1..t} (ctx+i)
			preKV += ctx + t
		}
	}
	for _, ch := range b.Verify {
		verified += float64(ch.Tokens)
	}
	for _, ctx := range b.Decode {
		decKV += float64(ctx + 1)
	}
	nDec := float64(len(b.Decode))
	n += nDec
	if n == 0 {
		return 0
	}
	seqs := nDec + float64(len(b.Prefill)+len(b.Verify))
	logits := nDec + float64(len(b.Prefill)) + verified
	sec := c.linearTime(n, logits) +
		roof(c.preFLOPs*preFLOPs/c.attnRate, c.kvBytes*preKV/c.memRate) +
		roof(c.attnFLOPs*decKV/c.attnRate, c.kvBytes*decKV/c.memRate) +
		c.windowTime(b) +
		c.comm.time(n) +
		c.fixedPerStp + c.p.SeqOverhead.Seconds()*seqs
	return time.Duration(sec * 1e9)
}

// windowTime is the attention time of b in the sliding-window layers,
// where a token sees at most the last window positions: the roofline of
// the prefill's and the decodes' as for the other layers, with every
// context capped at the window. 0 for a model without such layers.
func (c *CostModel) windowTime(b Batch) float64 {
	if c.window == 0 {
		return 0
	}
	w := c.window
	var pairs, preKV, decKV float64
	for _, chunks := range [...][]Chunk{b.Prefill, b.Verify} {
		for _, ch := range chunks {
			t, ctx := float64(ch.Tokens), float64(ch.Context)
			pairs += windowPairs(t, ctx, w)
			preKV += math.Min(ctx+t, w)
		}
	}
	for _, ctx := range b.Decode {
		decKV += math.Min(float64(ctx+1), w)
	}
	return roof(c.winPre*pairs/c.attnRate, c.winBytes*preKV/c.memRate) +
		roof(c.winFLOPs*decKV/c.attnRate, c.winBytes*decKV/c.memRate)
}

// windowPairs is Σ_{i=1..t} min(ctx+i, w): the positions the t tokens of
// a chunk after ctx cached ones attend to in a window of w.
func windowPairs(t, ctx, w float64) float64 {
	k := math.Max(0, math.Min(t, w-ctx)) // tokens whose window is not yet full
	return k*ctx + k*(k+1)/2 + (t-k)*w
}

// linearTime is the roofline of the weight matmuls for n tokens of which
// seqs produce logits (one a sequence, every token of a Verify chunk): max(layer FLOPs/(η_c·P_w) + LM-head FLOPs/(η_c·P_a),
// weight bytes/(η_m·BW)), in seconds.
func (c *CostModel) linearTime(n, seqs float64) float64 {
	compute := c.linFLOPs*n/c.linRate + c.headFLOPs*seqs/c.headRate
	return roof(compute, (c.denseBytes+c.ffnBytes*c.touchedFFNs(n))/c.memRate)
}

// linearRoof is the roofline of weight matmuls doing flops FLOPs and moving
// bytes bytes on one GPU: max(flops/(η_c·P_w), bytes/(η_m·BW)), in seconds.
func (c *CostModel) linearRoof(flops, bytes float64) float64 {
	return roof(flops/c.linRate, bytes/c.memRate)
}

// GEMMTime returns the duration of one linear layer, an n×in by in×out
// matrix product on one GPU at the weight precision, by the same roofline
// as the weight matmuls of StepTime:
//
//	T = max( 2·n·in·out / (η_c·P_w),  (in·out + n·in + n·out)·b_w / (η_m·BW) )
//
// FLOPs at the dense tensor rate; bytes are the weights read once plus the
// input and output activations, all at b_w bytes a value. It ignores TP:
// in and out are the shapes one GPU holds. Non-positive sizes take no time.
func (c *CostModel) GEMMTime(n, in, out int) time.Duration {
	if n <= 0 || in <= 0 || out <= 0 {
		return 0
	}
	fn, fi, fo := float64(n), float64(in), float64(out)
	bytes := (fi*fo + fn*fi + fn*fo) * c.hw.Weights.Bytes()
	return time.Duration(c.linearRoof(2*fn*fi*fo, bytes) * 1e9)
}

// touchedFFNs is the expected number of distinct experts per layer that n
// tokens route to when each picks k of E uniformly: E·(1 − (1 − k/E)^n).
// Dense models have one FFN, always touched.
func (c *CostModel) touchedFFNs(n float64) float64 {
	if c.experts <= 1 {
		return 1
	}
	return c.experts * (1 - math.Pow(c.routeMiss, n))
}

// roof is the roofline: a kernel takes the longer of its compute and its
// memory time.
func roof(compute, memory float64) float64 { return math.Max(compute, memory) }

// CostModel is the Coster the engine runs on.
var _ Coster = (*CostModel)(nil)
