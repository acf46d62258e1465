package sim

import "time"

// CostParams are the free parameters of the step-time model. The
// efficiencies are fractions of datasheet peak; the overheads are added
// per step, per layer, per sequence in the batch and per ring step of an
// all-reduce.
type CostParams struct {
	EtaCompute    float64       // η_c: achieved fraction of dense tensor FLOP/s in weight matmuls
	EtaAttention  float64       // η_a: achieved fraction of BF16 FLOP/s in attention kernels
	EtaMemory     float64       // η_m: achieved fraction of HBM bandwidth
	StepOverhead  time.Duration // c_step: scheduling, sampling, launch per step
	LayerOverhead time.Duration // c_layer: per layer per step (kernel launches, norms)
	SeqOverhead   time.Duration // c_seq: per sequence in the batch (metadata, sampling, detokenise)
	CommLatency   time.Duration // α: latency of one step of a ring all-reduce, 2(TP−1) steps each
}

// DefaultCostParams returns the parameters fitted on the rows of
// testdata/sim_calibration.json listed in docs/sim-validation.md (H100,
// vLLM 0.19.1, NVIDIA NIM and TensorRT-LLM). Re-fit with
// `go test ./sim -run TestFitCostParams -fit -v`.
func DefaultCostParams() CostParams {
	return CostParams{
		EtaCompute:    0.52,
		EtaAttention:  0.64,
		EtaMemory:     0.89,
		StepOverhead:  1550 * time.Microsecond,
		LayerOverhead: 0,
		SeqOverhead:   2 * time.Microsecond,
		CommLatency:   15 * time.Microsecond,
	}
}

// withDefaults returns p with a zero value, or any non-positive efficiency,
// replaced from DefaultCostParams.
func (p CostParams) withDefaults() CostParams {
	d := DefaultCostParams()
	if p == (CostParams{}) {
		return d
	}
	if p.EtaCompute <= 0 {
		p.EtaCompute = d.EtaCompute
	}
	if p.EtaAttention <= 0 {
		p.EtaAttention = d.EtaAttention
	}
	if p.EtaMemory <= 0 {
		p.EtaMemory = d.EtaMemory
	}
	return p
}
