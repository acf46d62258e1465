package virtual

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"surge/trace"
)

// hourChat returns one hour of open-loop chat at 20 req/s (Poisson, about
// 72k requests) with log-normal lengths of mean 1,000 input and 250 output
// tokens (σ 0.5), prompts being distinct 4-bytes-per-token slices of one
// random text.
func hourChat(seed uint64) []*trace.Session {
	rng := rand.New(rand.NewPCG(seed, 0))
	const rate, hour = 20.0, time.Hour
	text := make([]byte, 1<<20)
	for i := range text {
		text[i] = 'a' + byte(rng.IntN(26))
	}
	pool := string(text)
	logNormal := func(mean float64) int {
		const sigma = 0.5 // mean = median·e^{σ²/2}
		return max(1, int(mean*math.Exp(sigma*rng.NormFloat64()-sigma*sigma/2)))
	}
	var ss []*trace.Session
	for at := time.Duration(0); ; {
		at += time.Duration(rng.ExpFloat64() / rate * float64(time.Second))
		if at >= hour {
			return ss
		}
		in, out := min(logNormal(1000), 8000), min(logNormal(250), 2000)
		off := rng.IntN(len(pool) - 4*in)
		ss = append(ss, &trace.Session{
			Client: "c", Index: len(ss), AtUS: at.Microseconds(), Model: "m", API: "chat",
			Turns: []trace.Turn{{InputTokens: in, OutputTokens: out, MaxTokens: out, IgnoreEOS: true, Prompt: pool[off : off+4*in]}},
		})
	}
}

// discard is a sink that drops records.
type discard struct{}

func (discard) Write(*trace.Record) error { return nil }

// BenchmarkSimHourChat simulates the hour of chat on Llama-3.1-8B / H100
// and reports x_realtime (simulated seconds per wall second) and output
// tokens simulated per wall second. "discard" measures the simulation
// alone; "jsonl" also encodes every record as `surge sim` writes it.
func BenchmarkSimHourChat(b *testing.B) {
	ss := hourChat(1)
	for _, bc := range []struct {
		name     string
		replicas int
		sink     func() (Sink, func())
	}{
		{"discard/1xH100", 1, func() (Sink, func()) { return discard{}, func() {} }},
		{"discard/2xH100", 2, func() (Sink, func()) { return discard{}, func() {} }},
		{"discard/100xH100", 100, func() (Sink, func()) { return discard{}, func() {} }},
		{"jsonl/2xH100", 2, func() (Sink, func()) {
			rw, err := trace.NewRecordWriter(io.Discard, trace.RunHeader{})
			if err != nil {
				b.Fatal(err)
			}
			return rw, func() { rw.Close(trace.RunEnd{}) }
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := llamaH100(b)
			cfg.Replicas = bc.replicas
			var simulated time.Duration
			var tokens int64
			for b.Loop() {
				sink, done := bc.sink()
				end, err := Run(context.Background(), cfg, header(0), ss, countSink{sink, &tokens})
				done()
				if err != nil {
					b.Fatal(err)
				}
				simulated += time.Duration(end.DurationUS) * time.Microsecond
			}
			wall := b.Elapsed().Seconds()
			b.ReportMetric(simulated.Seconds()/wall, "x_realtime")
			b.ReportMetric(float64(tokens)/wall, "out_tokens/s")
			b.ReportMetric(float64(len(ss)), "requests")
		})
	}
}

// countSink counts output tokens on the way to a sink.
type countSink struct {
	Sink
	tokens *int64
}

func (c countSink) Write(r *trace.Record) error {
	*c.tokens += int64(r.ServerOutputTokens)
	return c.Sink.Write(r)
}

// tenMinuteChats returns ten minutes of open-loop conversations at 2
// sessions/s (Poisson), each of 8 turns with pinned history and no text:
// a system prompt of 2,000 tokens drawn from a pool of 4, user messages
// and replies of 50–350 tokens, and 1–9 s of think time between turns.
func tenMinuteChats(seed uint64) []*trace.Session {
	rng := rand.New(rand.NewPCG(seed, 0))
	var ss []*trace.Session
	for at := time.Duration(0); ; {
		at += time.Duration(rng.ExpFloat64() / 2 * float64(time.Second))
		if at >= 10*time.Minute {
			return ss
		}
		s := &trace.Session{Client: "c", Index: len(ss), AtUS: at.Microseconds(), Model: "m", API: "chat"}
		in := 2000
		for k := range 8 {
			t := trace.Turn{InputTokens: in + 50 + rng.IntN(300), OutputTokens: 50 + rng.IntN(300)}
			if k == 0 {
				t.SystemID, t.SystemTokens = 1+rng.IntN(4), 2000
			} else {
				t.Parent, t.WaitUS = new(k-1), int64(1e6+rng.IntN(8e6))
			}
			t.MaxTokens, t.IgnoreEOS = t.OutputTokens, true
			in = t.InputTokens + t.OutputTokens
			s.Turns = append(s.Turns, t)
		}
		ss = append(ss, s)
	}
}

// BenchmarkSimChat simulates the ten minutes of chat on Llama-3.1-8B /
// H100 and reports x_realtime and the prefix cache hit rate (cached over
// prompt tokens).
func BenchmarkSimChat(b *testing.B) {
	ss := tenMinuteChats(1)
	h := header(0)
	h.Clients[0].History = trace.HistoryPinned
	cfg := llamaH100(b)
	var simulated time.Duration
	var hit, prompt int64
	for b.Loop() {
		var c collect
		end, err := Run(context.Background(), cfg, h, ss, &c)
		if err != nil {
			b.Fatal(err)
		}
		simulated += time.Duration(end.DurationUS) * time.Microsecond
		for _, r := range c.recs {
			hit, prompt = hit+int64(r.CachedTokens), prompt+int64(r.ServerInputTokens)
		}
	}
	b.ReportMetric(simulated.Seconds()/b.Elapsed().Seconds(), "x_realtime")
	b.ReportMetric(float64(hit)/float64(prompt), "hit_rate")
}

// BenchmarkSimWEKA replays every 12th conversation of the flattened WEKA
// agentic requests (60 conversations, 3,464 requests, 424M prompt tokens
// in contexts of up to 460k, main and sub-agent streams), ten times
// faster, on a 1M-context model on one H100, two conversations at a time,
// and reports x_realtime and prompt tokens simulated per wall-second. The
// whole file (49,334 requests, 6.0G prompt tokens) takes about 20 times
// as long.
func BenchmarkSimWEKA(b *testing.B) {
	ss := wekaCSV(b, 12, 0)
	cfg := qwen1M(b)
	var simulated time.Duration
	var prompt int64
	for b.Loop() {
		end, err := Run(context.Background(), cfg, header(2), ss, promptSink{&prompt})
		if err != nil {
			b.Fatal(err)
		}
		simulated += time.Duration(end.DurationUS) * time.Microsecond
	}
	wall := b.Elapsed().Seconds()
	b.ReportMetric(simulated.Seconds()/wall, "x_realtime")
	b.ReportMetric(float64(prompt)/wall, "prompt_tokens/s")
}

// promptSink counts prompt tokens and drops the records.
type promptSink struct{ tokens *int64 }

func (p promptSink) Write(r *trace.Record) error {
	*p.tokens += int64(r.ServerInputTokens)
	return nil
}
