package server

import (
	"testing"

	"surge/sim"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	m, err := sim.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	g, err := sim.LookupGPU("h100")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		noPrefix bool
		want     string
	}{
		{false, `serving "m": Llama-3.1-8B on 2×H100-SXM, bf16 weights, KV cache 4096 tokens in bf16 (256 blocks of 16), max context 2048, max 8 seqs and 512 tokens per step, prefix caching on, scheduling as vllm`},
		{true, `serving "m": Llama-3.1-8B on 2×H100-SXM, bf16 weights, KV cache 4096 tokens in bf16 (256 blocks of 16), max context 2048, max 8 seqs and 512 tokens per step, prefix caching off, scheduling as vllm`},
	} {
		s, err := New(Config{Model: "m", Hardware: sim.Hardware{Model: m, GPU: g, TP: 2}, DisablePrefixCaching: tt.noPrefix,
			Engine: sim.EngineConfig{NumBlocks: 256, BlockSize: 16, MaxModelLen: 2048, MaxNumSeqs: 8, MaxNumBatchedTokens: 512}})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Describe(); got != tt.want {
			t.Errorf("Describe() =\n%s\nwant\n%s", got, tt.want)
		}
	}
}
