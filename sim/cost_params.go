package sim

import "time"

// CostParams are the free parameters of the step-time model. The
// efficiencies are fractions of datasheet peak; the overheads are added
// per step, per layer, per sequence in the batch and per synchronisation
// round of an all-reduce.
type CostParams struct {
	EtaCompute    float64       // η_c: achieved fraction of dense tensor FLOP/s in weight matmuls
	EtaAttention  float64       // η_a: achieved fraction of BF16 FLOP/s in attention kernels
	EtaMemory     float64       // η_m: achieved fraction of HBM bandwidth
	StepOverhead  time.Duration // c_step: scheduling, sampling, launch per step
	LayerOverhead time.Duration // c_layer: per layer per step (kernel launches, norms)
	SeqOverhead   time.Duration // c_seq: per sequence in the batch (metadata, sampling, detokenise)
	CommLatency   time.Duration // α: latency of one synchronisation round of an all-reduce (one-shot 1, two-shot 2)
	EtaLink       float64       // η_l: achieved fraction of the scale-up link's bandwidth in all-reduces
}

// DefaultCostParams returns the parameters fitted on the rows of
// testdata/sim_calibration.json listed in docs/sim-fit.md (H100,
// vLLM 0.19.1, NVIDIA NIM and TensorRT-LLM). Re-fit with
// `go test ./sim -run TestFitCostParams -fit -v`. EtaLink is not fitted:
// the measured NCCL all-reduce bus bandwidth of the reference README
// (Azure ND A100 v4: 232 GB/s of NVLink3's 300 at 8 GB; H100 at 16 MB
// to 8 GB, 235–479 GB/s of NVLink4's 450, the top with NVLink SHARP,
// which vLLM's and TensorRT-LLM's peer-to-peer kernels do not use) puts
// it near 0.8.
func DefaultCostParams() CostParams {
	return CostParams{
		EtaCompute:    0.53,
		EtaAttention:  0.63,
		EtaMemory:     0.91,
		StepOverhead:  1650 * time.Microsecond,
		LayerOverhead: 0,
		SeqOverhead:   2 * time.Microsecond,
		CommLatency:   28 * time.Microsecond,
		EtaLink:       0.8,
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
	if p.EtaLink <= 0 {
		p.EtaLink = d.EtaLink
	}
	return p
}
