package sim

import "math"

// allReduce is the cost of one all-reduce of a step's activations among
// the TP GPUs of one server, as latency plus bandwidth per message size
// for each algorithm the interconnect allows, the cheapest taken (as
// NCCL's tuner and vLLM's and TensorRT-LLM's custom all-reduces choose by
// size and TP):
//
//	one-shot  α + (TP−1)·M / B              every GPU reads every peer's whole message
//	two-shot  2α + 2(TP−1)/TP·M / B         reduce-scatter, then all-gather
//
// with M = n·h·2 bytes (n tokens of hidden size h in BF16), α the latency
// of one synchronisation round and B = η_l·GroupBW(TP). One-shot needs
// peer-to-peer access (NVLink, Infinity Fabric); over PCIe only two-shot,
// NCCL's ring, is left. Small decode messages are latency-bound and go
// one-shot, whose cost then does not grow with TP; large prefill
// messages are bandwidth-bound and go two-shot.
type allReduce struct {
	oneShot      bool    // one-shot is possible
	lat1, lat2   float64 // latency of one-shot and two-shot, seconds
	perTok1      float64 // one-shot seconds per token: (TP−1)·h·2 / B
	perTok2      float64 // two-shot seconds per token: 2(TP−1)/TP·h·2 / B
	callsPerStep float64 // all-reduces per step: 2·L (after attention and after the FFN)
}

// actBytes is the size of one activation value on the wire: BF16 or FP16.
const actBytes = 2

// newAllReduce prepares the all-reduces of hw with parameters p; with one
// GPU there are none.
func newAllReduce(hw Hardware, p CostParams) allReduce {
	if hw.TP <= 1 {
		return allReduce{}
	}
	tp := hw.tp()
	alpha := p.CommLatency.Seconds()
	tok := float64(hw.Model.Hidden) * actBytes / (p.EtaLink * hw.GPU.GroupBW(hw.TP))
	return allReduce{
		oneShot:      hw.GPU.Link.peerToPeer(),
		lat1:         alpha,
		lat2:         2 * alpha,
		perTok1:      (tp - 1) * tok,
		perTok2:      2 * (tp - 1) / tp * tok,
		callsPerStep: 2 * float64(hw.Model.Layers),
	}
}

// time returns the all-reduces' share of a step of n tokens, in seconds.
func (a allReduce) time(n float64) float64 {
	if a.callsPerStep == 0 {
		return 0
	}
	t := a.lat2 + a.perTok2*n
	if a.oneShot {
		t = math.Min(t, a.lat1+a.perTok1*n)
	}
	return a.callsPerStep * t
}
