package validation

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"surge/harness"
	"surge/sim"
)

// Case is a row the command line can express: the engine flags of
// `surge sim` and a workload of Requests requests of ISL prompt and OSL
// output tokens, sent Concurrency at a time (closed loop; offline rows
// send them all at once) or as Poisson arrivals at Rate per second.
type Case struct {
	Row         Row
	Engine      harness.Engine
	Requests    int
	Concurrency int
	Rate        float64
	ISL, OSL    int
	// Fitted says the row is one of those DefaultCostParams were fitted
	// on (Fitted); every other row is held out.
	Fitted bool
}

// Express maps r to the case that runs it, or returns why the command
// line cannot express it.
func Express(r Row) (Case, string) {
	if r.ISL == nil || r.OSL == nil {
		return Case{}, "no fixed prompt and output lengths (a dataset's lengths, which shared/reference does not hold)"
	}
	if _, ok := groupOf[r.Metric]; !ok {
		return Case{}, notServing(r.Metric)
	}
	if *r.ISL == 202 && *r.OSL == 179 { // the ShareGPT means the rows of that dataset give
		return Case{}, "ShareGPT lengths: the row gives only their means (202/179), and they are heavy-tailed"
	}
	eng, why := engineOf(r)
	if why != "" {
		return Case{}, why
	}
	c := Case{Row: r, Engine: eng, ISL: *r.ISL, OSL: *r.OSL, Fitted: Fitted(r)}
	if m, _ := sim.LookupModel(eng.Model); c.ISL+c.OSL > m.MaxContext {
		return Case{}, fmt.Sprintf("%d prompt and %d output tokens exceed %s's context of %d, which --max-model-len cannot raise", c.ISL, c.OSL, eng.Model, m.MaxContext)
	}
	if why := c.load(); why != "" {
		return Case{}, why
	}
	return c, ""
}

// notServing says why a metric is not a serving run's.
func notServing(metric string) string {
	switch {
	case strings.HasPrefix(metric, "op_time_"):
		return "one GEMM of one layer, not a serving run (the cost model's own tests check it)"
	case strings.HasSuffix(metric, "_per_node"):
		return "per-node throughput of a disaggregated, expert-parallel deployment"
	}
	return "metric " + metric + " is not read from surge's report yet"
}

// engineOf maps the row's model, GPU, precision and engine to flags.
func engineOf(r Row) (harness.Engine, string) {
	name := r.Model
	if i := strings.Index(name, " ("); i >= 0 {
		name = name[:i]
	}
	if _, err := sim.LookupModel(name); err != nil {
		return harness.Engine{}, "model " + r.Model + " not in the catalog"
	}
	if _, err := sim.LookupGPU(r.GPU); err != nil {
		return harness.Engine{}, "GPU " + r.GPU + " not in the catalog"
	}
	eng := harness.Engine{Model: name, GPU: r.GPU, TP: max(r.GPUCount, 1)}
	switch {
	case strings.HasPrefix(r.Engine, "SGLang"):
		eng.Settings.Engine = "sglang"
	case strings.HasPrefix(r.Engine, "LMDeploy"):
		return eng, "LMDeploy has no --engine"
	case strings.HasPrefix(r.Engine, "TensorRT-LLM"):
		eng.Settings.Engine = "trtllm"
		if strings.Contains(r.Notes, "kv_cache_free_gpu_mem_fraction usually 0.95") {
			eng.Settings.MemoryUtilization = 0.95
		}
	}
	p := strings.ToUpper(r.Precision)
	switch {
	case strings.HasPrefix(p, "FP8"):
		eng.Settings.Dtype, eng.Settings.KVCacheDtype = "fp8", "fp8"
	case strings.HasPrefix(p, "FP16"):
		eng.Settings.Dtype = "fp16"
	}
	if strings.Contains(p, "FP8 KV") {
		eng.Settings.KVCacheDtype = "fp8"
	}
	return eng, ""
}

// load sets the requests and how they are sent. A static batch
// (Splitwise) is b requests prefilled in one step: the token budget and
// sequence cap hold the whole batch, and prefix caching is off.
func (c *Case) load() string {
	r := c.Row
	if r.LoadValue == nil && r.LoadKind != "offline" {
		return "load " + r.LoadKind + " without a value"
	}
	switch r.LoadKind {
	case "concurrency":
		c.Concurrency = int(*r.LoadValue)
		c.Requests = max(10, 5*c.Concurrency)
		if n := count(r.Notes, `(\d+) requests at concurrency`); n > 0 {
			c.Requests = n
		}
		if r.Metric == "prefill_time_batch" || r.Metric == "decode_step_time" || strings.Contains(r.Notes, "fixed batch") {
			c.Requests = c.Concurrency
		}
		if r.Metric == "prefill_time_batch" || r.Metric == "decode_step_time" {
			s := &c.Engine.Settings
			s.MaxNumBatchedTokens = max(sim.DefaultMaxNumBatchedTokens, c.Concurrency*c.ISL)
			s.MaxNumSeqs = max(sim.DefaultMaxNumSeqs, c.Concurrency)
			s.NoPrefixCaching = true
		}
	case "offline":
		c.Requests = offlineRequests(r, c.ISL, c.OSL)
		c.Concurrency = c.Requests
	case "rate":
		c.Rate = *r.LoadValue
		c.Requests = cmp.Or(count(r.Notes, `(\d+) prompts`), 500)
	default:
		return "load kind " + r.LoadKind + " not known"
	}
	return ""
}

// trtllmRequests is the number of requests of each ISL/OSL of
// TensorRT-LLM's performance overview ("Preparing a Dataset").
var trtllmRequests = map[[2]int]int{
	{128, 128}: 30000, {128, 2048}: 3000, {128, 4096}: 1500, {1000, 2000}: 1500,
	{2048, 128}: 3000, {2048, 2048}: 1500, {5000, 500}: 1500, {1000, 1000}: 3000,
	{500, 2000}: 3000, {20000, 2000}: 1000,
}

// offlineRequests is how many requests an offline row queues at once:
// the count its notes give, TensorRT-LLM's table, else 1,000.
func offlineRequests(r Row, isl, osl int) int {
	if n := count(r.Notes, `(\d+) prompts`); n > 0 {
		return n
	}
	if n, ok := trtllmRequests[[2]int{isl, osl}]; ok && strings.HasPrefix(r.Engine, "TensorRT-LLM") {
		return n
	}
	return 1000
}

// count returns the number pattern's group matches in notes, or 0.
func count(notes, pattern string) int {
	m := regexp.MustCompile(pattern).FindStringSubmatch(notes)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// Fitted says whether DefaultCostParams were fitted on r (by the
// closed-form fit of `go test ./sim -run TestFitCostParams -fit`): vLLM 0.19.1 latency rows, NIM latency at concurrency ≤ 50 and
// the TensorRT-LLM v1.0 Llama-3 8B/70B grid.
func Fitted(r Row) bool {
	g := groupOf[r.Metric]
	switch {
	case strings.Contains(r.Engine, "vLLM 0.19.1"):
		return r.Metric != "output_throughput" && r.Metric != "total_duration"
	case strings.Contains(r.Engine, "NIM"):
		return g != Throughput && r.LoadValue != nil && *r.LoadValue <= 50
	case strings.Contains(r.Engine, "TensorRT-LLM v1.0"):
		return strings.HasPrefix(r.Model, "Llama-3") && !strings.Contains(r.Model, "405B")
	}
	return false
}

// Spec is the workload's spec, as `surge sim SPEC` reads it.
func (c Case) Spec() string {
	load := fmt.Sprintf("concurrency: %d", c.Concurrency)
	if c.Rate > 0 {
		load = fmt.Sprintf("rate: %g/s", c.Rate)
	}
	return fmt.Sprintf("version: 1\nseed: 1\nrequests: %d\nclients:\n  - {name: bench, model: m, %s, input: %d, output: %d, sampling: {exact_output: true}}\n",
		c.Requests, load, c.ISL, c.OSL)
}

// Flags are the engine flags of `surge sim` that run the case.
func (c Case) Flags() string {
	e, s := c.Engine, c.Engine.Settings
	f := fmt.Sprintf("--engine-model %s --gpu %s --tp %d", e.Model, e.GPU, e.TP)
	if s.Engine != "" {
		f += " --engine " + s.Engine
	}
	if s.Dtype != "" {
		f += " --dtype " + s.Dtype
	}
	if s.KVCacheDtype != "" {
		f += " --kv-cache-dtype " + s.KVCacheDtype
	}
	if s.MemoryUtilization != 0 {
		f += fmt.Sprintf(" --gpu-memory-utilization %g", s.MemoryUtilization)
	}
	if s.MaxNumSeqs != 0 {
		f += fmt.Sprintf(" --max-num-seqs %d", s.MaxNumSeqs)
	}
	if s.MaxNumBatchedTokens != 0 {
		f += fmt.Sprintf(" --max-num-batched-tokens %d", s.MaxNumBatchedTokens)
	}
	if s.NoPrefixCaching {
		f += " --no-prefix-caching"
	}
	return f
}
