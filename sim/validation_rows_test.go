package sim_test

import (
	"strings"
	"surge/sim"
	"surge/sim/validation"
)

// metricKind groups metrics for the error summary: "throughput" or "latency".
var metricKind = map[string]string{
	"output_throughput":  "throughput",
	"request_throughput": "throughput",
	"itl_median":         "latency",
	"itl_mean":           "latency",
	"ttft_median":        "latency",
	"ttft_mean":          "latency",
	"e2e_latency_mean":   "latency",
	// Static-batch step times (Splitwise) and single-GEMM times (Vidur).
	"prefill_time_batch":    "latency",
	"decode_step_time":      "latency",
	"op_time_attn_pre_proj": "latency",
	"op_time_mlp_up_proj":   "latency",
	"op_time_mlp_down_proj": "latency",
}

// caseKind says which predictor answers a row.
type caseKind int

const (
	steadyCase caseKind = iota // serving rows: predictSteady
	staticCase                 // Splitwise static batches: staticPrefill, staticDecode
	opCase                     // Vidur single GEMMs: CostModel.GEMMTime
)

// rowCase is a row one of the predictors can answer.
type rowCase struct {
	row   validation.Row
	hw    sim.Hardware
	kind  caseKind
	cfg   steadyConfig // steadyCase
	batch int          // staticCase: identical requests in the batch
	op    opShape      // opCase: the GEMM's in and out sizes
	fit   bool         // in the calibration (fit) set, else held out
}

// classify maps a row to a rowCase or returns the reason it is skipped.
func classify(r validation.Row) (rowCase, string) {
	if r.LoadKind == "rate" {
		return rowCase{}, "open-loop rate rows need the full engine (queueing under Poisson arrivals)"
	}
	if _, err := sim.LookupModel(catalogName(r.Model)); err != nil {
		return rowCase{}, "model not in catalog (" + r.Model + ")"
	}
	switch {
	case r.Metric == "prefill_time_batch" || r.Metric == "decode_step_time":
		return classifyStatic(r)
	case strings.HasPrefix(r.Metric, "op_time_"):
		return classifyOp(r)
	}
	if _, ok := metricKind[r.Metric]; !ok {
		return rowCase{}, "metric not produced by the steady-state predictor (" + r.Metric + ")"
	}
	if r.ISL == nil || r.OSL == nil {
		return rowCase{}, "no fixed isl/osl (dataset-length workloads need the full engine)"
	}
	if strings.Contains(strings.ToLower(r.Notes), "sharegpt") && *r.ISL == 202 {
		return rowCase{}, "ShareGPT length distribution (isl/osl are means, heavy-tailed): needs the full engine"
	}
	if r.LoadKind == "offline" && metricKind[r.Metric] == "latency" {
		return rowCase{}, "offline latency of a finite prompt pool is queue drain: needs the full engine"
	}
	if strings.Contains(r.Engine, "0.5.3") {
		return rowCase{}, "vLLM 0.5.3 is CPU-overhead bound (documented 2.7x slower); not modelled"
	}
	hw, why := rowHardware(r)
	if why != "" {
		return rowCase{}, why
	}
	cfg := steadyConfig{MaxSeqs: 256, Budget: 8192, MemUtil: sim.DefaultMemoryUtilization, ISL: *r.ISL, OSL: *r.OSL}
	if strings.Contains(r.Engine, "TensorRT-LLM") {
		// trtllm-bench: max_batch_size 2048, kv_cache_free_gpu_mem_fraction 0.95 (row notes).
		// Its default GUARANTEED_NO_EVICT scheduler reserves isl+osl blocks per request.
		cfg.MaxSeqs, cfg.MemUtil, cfg.ReserveFull = 2048, 0.95, true
	}
	if r.LoadKind == "concurrency" && r.LoadValue != nil {
		cfg.Clients = int(*r.LoadValue)
	}
	return rowCase{row: r, hw: hw, cfg: cfg, fit: validation.Fitted(r)}, ""
}

// catalogName is the catalog model a row names: Vidur's operator rows say
// "Llama-2-70B (one layer, TP1 shapes)", so a parenthetical is dropped.
func catalogName(model string) string {
	if i := strings.Index(model, " ("); i >= 0 {
		return model[:i]
	}
	return model
}

// classifyStatic maps a Splitwise static-batch row: TP from gpu_count,
// load_value identical requests of isl/osl tokens, FP16 (the BF16 entry:
// same bytes and the same dense tensor peak on A100 and H100).
func classifyStatic(r validation.Row) (rowCase, string) {
	if r.ISL == nil || r.OSL == nil || r.LoadValue == nil || *r.LoadValue < 1 {
		return rowCase{}, "static batch without isl, osl or batch size"
	}
	hw, why := rowHardware(r)
	if why != "" {
		return rowCase{}, why
	}
	return rowCase{row: r, hw: hw, kind: staticCase, batch: int(*r.LoadValue)}, ""
}

// classifyOp maps a Vidur operator row: one GEMM of one layer at TP1
// shapes for isl tokens, in BF16.
func classifyOp(r validation.Row) (rowCase, string) {
	hw, why := rowHardware(r)
	if why != "" {
		return rowCase{}, why
	}
	op, ok := opShapes(hw.Model)[strings.TrimPrefix(r.Metric, "op_time_")]
	if !ok || r.ISL == nil {
		return rowCase{}, "operator not modelled (" + r.Metric + ")"
	}
	hw.TP = 1
	return rowCase{row: r, hw: hw, kind: opCase, op: op}, ""
}

// rowHardware builds the row's Hardware: catalog model and GPU, TP from
// gpu_count, BF16 weights and KV unless the precision says FP8.
func rowHardware(r validation.Row) (sim.Hardware, string) {
	m, err := sim.LookupModel(catalogName(r.Model))
	if err != nil {
		return sim.Hardware{}, "model not in catalog"
	}
	g, err := sim.LookupGPU(r.GPU)
	if err != nil {
		return sim.Hardware{}, "gpu not in catalog"
	}
	hw := sim.Hardware{Model: m, GPU: g, TP: r.GPUCount, Weights: sim.BF16, KV: sim.BF16}
	p := strings.ToUpper(r.Precision)
	if strings.HasPrefix(p, "FP8") {
		hw.Weights, hw.KV = sim.FP8, sim.FP8
	}
	if strings.Contains(p, "FP8 KV") {
		hw.KV = sim.FP8
	}
	return hw, ""
}

// predict returns the predictor's value for the row's metric, in the row's
// unit.
func predict(rc rowCase, p sim.CostParams) float64 {
	c := sim.NewCostModel(rc.hw, p)
	ms := 1.0
	if rc.row.Unit == "ms" {
		ms = 1000
	}
	switch rc.kind {
	case staticCase:
		if rc.row.Metric == "prefill_time_batch" {
			return staticPrefill(c, rc.batch, *rc.row.ISL).Seconds() * ms
		}
		return staticDecode(c, rc.batch, *rc.row.ISL, *rc.row.OSL).Seconds() * ms
	case opCase:
		return c.GEMMTime(*rc.row.ISL, rc.op.In, rc.op.Out).Seconds() * ms
	}
	s := predictSteady(c, rc.cfg)
	switch rc.row.Metric {
	case "output_throughput":
		return s.OutputTPS
	case "request_throughput":
		return s.RequestTPS
	case "itl_median":
		return s.ITLMedian * ms
	case "itl_mean":
		return s.ITLMean * ms
	case "ttft_median", "ttft_mean":
		return s.TTFT * ms
	case "e2e_latency_mean":
		return (s.TTFT + float64(rc.cfg.OSL-1)*s.ITLMean) * ms
	}
	panic("predict: unhandled metric " + rc.row.Metric)
}
