package content

import (
	"math/rand/v2"
	"testing"
	"time"
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

// BenchmarkPromptEncode1k is the reference for BenchmarkPrompt1k: one
// o200k_base Encode of a 1,000-token prompt, the least work a synthesiser
// that checked each prompt's length by tokenizing it would do per prompt.
func BenchmarkPromptEncode1k(b *testing.B) {
	tok, s := testSynth(b, "o200k_base")
	text := string(s.Prompt(nil, rand.New(rand.NewPCG(1, 2)), StyleMixed, 1000))
	for b.Loop() {
		tok.Encode(text)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "prompts/s")
}

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

// benchmarkTasks measures assembling prompts of n tokens in every task
// style in turn, in English, on the o200k_base pool with the task text.
func benchmarkTasks(b *testing.B, n int) {
	_, s := testTaskSynth(b, "o200k_base")
	r := rand.New(rand.NewPCG(1, 2))
	all := TaskStyles()
	var buf []byte
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		buf = s.Prompt(buf[:0], r, all[i%len(all)], n)
		i++
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "prompts/s")
}

func BenchmarkPromptTasks1k(b *testing.B)  { benchmarkTasks(b, 1000) }
func BenchmarkPromptTasks16k(b *testing.B) { benchmarkTasks(b, 16000) }

// BenchmarkPromptLanguages1k is benchmarkTasks' 1,000-token case for
// question prompts in every language in turn.
func BenchmarkPromptLanguages1k(b *testing.B) {
	_, s := testTaskSynth(b, "o200k_base")
	r := rand.New(rand.NewPCG(1, 2))
	langs := Languages()
	var buf []byte
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		buf = s.PromptIn(buf[:0], r, StyleQuestion, langs[i%len(langs)], 1000)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "prompts/s")
}

// BenchmarkNewSynthTasks is BenchmarkNewSynth with SynthConfig.Tasks.
func BenchmarkNewSynthTasks(b *testing.B) {
	tok, err := Builtin("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := NewSynth(tok, SynthConfig{Tasks: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkTasksRatio reports the speed of task prompts of n tokens
// (benchmarkTasks' loop) over that of mixed prompts (benchmarkPrompt's),
// written in alternate batches of 50 in one process, so that a shared
// machine's load and the setup's garbage slow both alike; each iteration
// is one batch of each.
func benchmarkTasksRatio(b *testing.B, n int) {
	_, plain := testSynth(b, "o200k_base")
	_, tasks := testTaskSynth(b, "o200k_base")
	rm, rt := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	all := TaskStyles()
	var buf []byte
	var mixed, task time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		for range 50 {
			buf = plain.Prompt(buf[:0], rm, StyleMixed, n)
		}
		t1 := time.Now()
		for range 50 {
			buf = tasks.Prompt(buf[:0], rt, all[i%len(all)], n)
			i++
		}
		mixed += t1.Sub(t0)
		task += time.Since(t1)
	}
	b.ReportMetric(mixed.Seconds()/task.Seconds(), "tasks/mixed")
}

func BenchmarkPromptTasksRatio1k(b *testing.B)  { benchmarkTasksRatio(b, 1000) }
func BenchmarkPromptTasksRatio16k(b *testing.B) { benchmarkTasksRatio(b, 16000) }
