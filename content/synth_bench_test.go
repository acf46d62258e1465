package content

import (
	"math/rand/v2"
	"testing"
)

// benchmarkPrompt measures assembling mixed-style prompts of n tokens into
// a reused buffer, on the o200k_base pool.
func benchmarkPrompt(b *testing.B, n int) {
	_, s := testSynth(b, "o200k_base")
	r := rand.New(rand.NewPCG(1, 2))
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = s.Prompt(buf[:0], r, StyleMixed, n)
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "prompts/s")
	b.ReportMetric(float64(b.N)*float64(n)/sec, "tokens/s")
}

func BenchmarkPrompt1k(b *testing.B)  { benchmarkPrompt(b, 1000) }
func BenchmarkPrompt16k(b *testing.B) { benchmarkPrompt(b, 16000) }

// BenchmarkNewSynth measures building and verifying the built-in pool.
func BenchmarkNewSynth(b *testing.B) {
	tok, err := Builtin("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := NewSynth(tok, SynthConfig{}); err != nil {
			b.Fatal(err)
		}
	}
}
