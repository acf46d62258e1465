package workload

import (
	"context"
	"fmt"
	"io"
	"testing"

	"surge/trace"
)

// benchGenerate compiles b.N sessions of a one-client spec with fixed input
// length and writes them as a trace to io.Discard, reporting sessions/s.
func benchGenerate(b *testing.B, input int, noText bool) {
	s := parse(b, fmt.Sprintf(`
version: 1
requests: 1
clients:
  - name: c
    model: m
    rate: 1000/s
    arrival: {process: gamma, cv: 2}
    input: %d
    output: {dist: lognormal, median: 200, sigma: 0.7}
`, input))
	tok, synth := o200k(b)
	s.Requests = b.N
	g, err := New(s, tok, synth, Options{NoText: noText})
	if err != nil {
		b.Fatal(err)
	}
	w, err := trace.NewWriter(io.Discard, g.Header())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := g.Generate(context.Background(), w.Write); err != nil {
		b.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sessions/s")
	if !noText {
		b.ReportMetric(float64(b.N)*float64(input)/b.Elapsed().Seconds(), "tokens/s")
	}
}

// BenchmarkGenerateNoText measures schedule and length generation plus
// trace encoding, without prompt text.
func BenchmarkGenerateNoText(b *testing.B) { benchGenerate(b, 1000, true) }

// BenchmarkGenerateText1k includes synthesising 1,000-token prompts and
// JSON-encoding them into the trace.
func BenchmarkGenerateText1k(b *testing.B) { benchGenerate(b, 1000, false) }

// BenchmarkGenerateText16k is the same with 16,000-token prompts.
func BenchmarkGenerateText16k(b *testing.B) { benchGenerate(b, 16000, false) }
