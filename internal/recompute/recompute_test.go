package recompute

import (
	"path/filepath"
	"testing"
)

// simArgs run the built-in engine in virtual time.
var simArgs = []string{"--model", "llama-3.1-8b", "--gpu", "h100"}

// plainSpec is two open-loop clients with warmup and SLOs.
const plainSpec = `version: 1
name: plain
seed: 11
tokenizer: o200k_base
duration: 30s
warmup: 3s
clients:
  - name: chat
    model: meta-llama/Llama-3.1-8B-Instruct
    rate: 6/s
    input: {dist: lognormal, median: 600, sigma: 0.8, min: 16, max: 6k}
    output: {dist: lognormal, median: 150, sigma: 0.7, max: 1k}
    sampling: {max_tokens: output, exact_output: true}
  - name: batch
    model: meta-llama/Llama-3.1-8B-Instruct
    rate: 2/s
    arrival: {process: gamma, cv: 2}
    input: {dist: uniform, min: 1000, max: 3000}
    output: {dist: uniform, min: 1, max: 40}
    sampling: {max_tokens: output, exact_output: true}
slo:
  ttft: {p90: 150ms}
  tpot: {p99: 40ms}
  e2e: {p50: 3s}
`

// simRun simulates spec into a fresh directory and returns it.
func simRun(t *testing.T, spec string, extra ...string) string {
	t.Helper()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "run")
	args := append([]string{"sim", writeSpec(t, tmp, spec), "-o", dir}, simArgs...)
	mustSurge(t, []int{0}, append(args, extra...)...)
	return dir
}

func TestPlainRun(t *testing.T) {
	t.Parallel()
	dir := simRun(t, plainSpec)
	checkRun(t, dir, "plain")
}
