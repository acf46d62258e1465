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
func benchGenerate(b *testing.B, input int, noText bool) { benchGenerateText(b, input, noText, "") }

// benchGenerateText is benchGenerate with more lines for the client, such
// as its content or language mix.
func benchGenerateText(b *testing.B, input int, noText bool, extra string) {
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
%s`, input, extra))
	tok, synth := o200k(b)
	if NeedsTasks(s) {
		tok, synth = o200kTasks(b)
	}
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

// BenchmarkGenerateTasks1k is BenchmarkGenerateText1k with every task
// style in equal shares.
func BenchmarkGenerateTasks1k(b *testing.B) {
	benchGenerateText(b, 1000, false, "    content: {creative: 1, analysis: 1, extraction: 1, math: 1, tool_use: 1, long_qa: 1, rag: 1, chat: 1, translation: 1, adversarial: 1}\n")
}

// BenchmarkGenerateLanguages1k is BenchmarkGenerateText1k with every
// language in equal shares.
func BenchmarkGenerateLanguages1k(b *testing.B) {
	benchGenerateText(b, 1000, false, "    language: {en: 1, es: 1, fr: 1, de: 1, zh: 1, ja: 1, ar: 1, hi: 1, ru: 1}\n")
}
