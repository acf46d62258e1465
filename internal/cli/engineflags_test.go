package cli

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"surge/sim"
)

// llamaH100 is the hardware the engine flag tests resolve against.
func llamaH100(t *testing.T) sim.Hardware {
	t.Helper()
	m, err := sim.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	g, err := sim.LookupGPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	return sim.Hardware{Model: m, GPU: g, TP: 1}
}

// TestEngineFlags parses engine flags as a command would and resolves them
// on Llama-3.1-8B on one H100.
func TestEngineFlags(t *testing.T) {
	t.Parallel()
	hw := llamaH100(t)
	blocks := hw.KVBlocks(0.9)
	def := sim.EngineConfig{MaxNumBatchedTokens: 8192, MaxNumSeqs: 256, BlockSize: 16, NumBlocks: blocks,
		MaxModelLen: min(hw.MaxContext(), blocks*16), EnablePrefixCaching: true}
	with := func(f func(*sim.EngineConfig)) sim.EngineConfig {
		ec := def
		f(&ec)
		return ec
	}
	fp8 := hw
	fp8.Weights, fp8.KV = sim.FP8, sim.FP8
	tests := []struct {
		reason string
		args   []string
		want   sim.EngineConfig
		errs   []string // substrings of the error, every one required
	}{
		{"FP8 weights and KV cache: half the bytes, a bigger cache",
			[]string{"--dtype", "fp8", "--kv-cache-dtype", "fp8"}, with(func(ec *sim.EngineConfig) { ec.NumBlocks = fp8.KVBlocks(0.9) }), nil},
		{"FP4 weights need Blackwell", []string{"--dtype", "fp4"}, sim.EngineConfig{}, []string{"--dtype fp4: fp4 weights need FP4 tensor cores"}},
		{"vLLM's defaults, the KV cache at 0.9 of HBM and the model's context", nil, def, nil},
		{"the scheduler limits are taken as given",
			[]string{"--max-num-seqs", "1", "--max-num-batched-tokens", "512"},
			with(func(ec *sim.EngineConfig) { ec.MaxNumSeqs, ec.MaxNumBatchedTokens = 1, 512 }), nil},
		{"prefix caching can be turned off",
			[]string{"--no-prefix-caching"}, with(func(ec *sim.EngineConfig) { ec.EnablePrefixCaching = false }), nil},
		{"vLLM's spelling turns it off too",
			[]string{"--no-enable-prefix-caching"}, with(func(ec *sim.EngineConfig) { ec.EnablePrefixCaching = false }), nil},
		{"a shorter context is allowed",
			[]string{"--max-model-len", "4096"}, with(func(ec *sim.EngineConfig) { ec.MaxModelLen = 4096 }), nil},
		{"all of HBM is a valid utilization and gives a bigger cache",
			[]string{"--gpu-memory-utilization", "1"},
			with(func(ec *sim.EngineConfig) { ec.NumBlocks = hw.KVBlocks(1) }), nil},
		{"a small cache caps the default context",
			[]string{"--gpu-memory-utilization", "0.3"},
			with(func(ec *sim.EngineConfig) { ec.NumBlocks, ec.MaxModelLen = hw.KVBlocks(0.3), hw.KVTokens(0.3) }), nil},
		{"speculative decoding drafts 4 tokens with a draft model by default",
			[]string{"--speculative-tokens", "4"}, with(func(ec *sim.EngineConfig) { ec.Speculative = sim.Speculative{Tokens: 4} }), nil},
		{"or with n-grams",
			[]string{"--speculative-tokens", "2", "--speculative-method", "ngram"},
			with(func(ec *sim.EngineConfig) { ec.Speculative = sim.Speculative{Tokens: 2, Method: sim.NGram} }), nil},
		{"an unknown method is refused", []string{"--speculative-method", "medusa"}, sim.EngineConfig{}, []string{`--speculative-method: unknown speculative method "medusa"`}},
		{"negative drafts are refused", []string{"--speculative-tokens", "-1"}, sim.EngineConfig{}, []string{"--speculative-tokens -1"}},
		{"no sequences at all is refused", []string{"--max-num-seqs", "0"}, sim.EngineConfig{}, []string{"--max-num-seqs 0"}},
		{"a negative token budget is refused", []string{"--max-num-batched-tokens", "-5"}, sim.EngineConfig{}, []string{"--max-num-batched-tokens -5"}},
		{"a budget below max-num-seqs starves decodes, as vLLM says",
			[]string{"--max-num-batched-tokens", "100"}, sim.EngineConfig{}, []string{"--max-num-batched-tokens 100 is less than --max-num-seqs 256"}},
		{"utilization 0 is refused", []string{"--gpu-memory-utilization", "0"}, sim.EngineConfig{}, []string{"--gpu-memory-utilization 0: want a fraction in (0, 1]"}},
		{"utilization over 1 is refused", []string{"--gpu-memory-utilization", "1.5"}, sim.EngineConfig{}, []string{"--gpu-memory-utilization 1.5"}},
		{"NaN utilization is refused", []string{"--gpu-memory-utilization", "NaN"}, sim.EngineConfig{}, []string{"--gpu-memory-utilization NaN"}},
		{"a negative context is refused", []string{"--max-model-len", "-1"}, sim.EngineConfig{}, []string{"--max-model-len -1"}},
		{"every bad flag is reported at once",
			[]string{"--max-num-seqs", "-1", "--gpu-memory-utilization", "2", "--max-model-len", "-3"}, sim.EngineConfig{},
			[]string{"--max-num-seqs -1", "--gpu-memory-utilization 2", "--max-model-len -3"}},
		{"a context longer than the model's is refused",
			[]string{"--max-model-len", "200000"}, sim.EngineConfig{}, []string{"--max-model-len 200000: Llama-3.1-8B accepts at most 131072"}},
		{"a context longer than the KV cache is refused",
			[]string{"--gpu-memory-utilization", "0.3", "--max-model-len", strconv.Itoa(hw.KVTokens(0.3) + 1)}, sim.EngineConfig{},
			[]string{fmt.Sprintf("--max-model-len %d: the KV cache holds only %d tokens", hw.KVTokens(0.3)+1, hw.KVTokens(0.3)), "raise the utilization"}},
		{"weights that leave no room for a cache are refused (4 GB of an H100 for 16 GB of weights)",
			[]string{"--gpu-memory-utilization", "0.05"}, sim.EngineConfig{}, []string{"--gpu-memory-utilization 0.05: Llama-3.1-8B (16 GB of bf16 weights) does not fit on 1×H100-SXM"}},
	}
	for _, tt := range tests {
		var e engineFlags
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		e.register(fs, "")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%s: parsing %q: %v", tt.reason, tt.args, err)
		}
		var got sim.EngineConfig
		err := e.check() // the commands check the flags as given first
		if err == nil {
			got, err = e.settings().Resolve(hw)
		}
		if tt.errs == nil {
			if err != nil || got != tt.want {
				t.Errorf("%s: got %+v, %v; want %+v", tt.reason, got, err, tt.want)
			}
			continue
		}
		for _, want := range tt.errs {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %v, want it to say %q", tt.reason, err, want)
			}
		}
	}
}

// TestEngineQuery: surge sim names only the settings that differ from
// vLLM's defaults in its target.
func TestEngineQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"defaults add nothing", nil, ""},
		{"a default given explicitly adds nothing", []string{"--max-num-seqs", "256"}, ""},
		{"changes are listed in a fixed order",
			[]string{"--no-prefix-caching", "--max-num-seqs", "1", "--gpu-memory-utilization", "0.5", "--max-model-len", "4096"},
			"max-num-seqs=1&prefix-caching=off&gpu-memory-utilization=0.5&max-model-len=4096"},
		{"speculative decoding is named, its method when not a draft model",
			[]string{"--speculative-tokens", "4", "--speculative-method", "ngram"}, "speculative-tokens=4&speculative-method=ngram"},
	}
	for _, tt := range tests {
		var e engineFlags
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		e.register(fs, "")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if got := e.settings().Query(sim.Hardware{TP: 1}); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.reason, got, tt.want)
		}
	}
}

// TestEngineFlagsOnEveryCommand: the three commands that start the engine
// take the flags and refuse bad values as usage errors naming the flag;
// surge run refuses them with --target, where no engine is started.
func TestEngineFlagsOnEveryCommand(t *testing.T) {
	t.Parallel()
	hw := []string{"--model", "llama-3.1-8b", "--gpu", "h100"}
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"sim checks the flags", append([]string{"sim", "x.yaml", "--max-num-seqs", "0"}, hw...), "--max-num-seqs 0"},
		{"serve checks the flags", append([]string{"serve", "--gpu-memory-utilization", "1.2"}, hw...), "--gpu-memory-utilization 1.2"},
		{"serve checks the context against the model", append([]string{"serve", "--max-model-len", "200000"}, hw...), "--max-model-len 200000"},
		{"run checks the flags before loading the workload", []string{"run", "x.yaml", "--max-num-batched-tokens", "0"}, "--max-num-batched-tokens 0"},
		{"run with --target starts no engine to set",
			[]string{"run", "x.yaml", "--target", "http://127.0.0.1:1", "--no-enable-prefix-caching"}, "--no-enable-prefix-caching sets the built-in engine"},
	}
	for _, tt := range tests {
		code, _, errOut := run(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tt.reason, code, errOut, exitUsage, tt.want)
		}
	}
}
