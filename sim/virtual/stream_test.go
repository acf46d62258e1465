package virtual

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"surge/trace"
)

// chatStream returns d of open-loop chat at rate sessions/s, as hourChat
// makes it but one session at a time, each with a prompt of its own text
// (cloned, so that held sessions hold their text), every fourth with one
// of two shared system prompts.
func chatStream(seed uint64, d time.Duration, rate float64) func() (*trace.Session, error) {
	rng := rand.New(rand.NewPCG(seed, 0))
	text := make([]byte, 1<<18)
	for i := range text {
		text[i] = 'a' + byte(rng.IntN(26))
	}
	pool := string(text)
	logNormal := func(mean float64) int {
		return max(1, int(mean*math.Exp(0.5*rng.NormFloat64()-0.125)))
	}
	var at time.Duration
	index := 0
	return func() (*trace.Session, error) {
		at += time.Duration(rng.ExpFloat64() / rate * float64(time.Second))
		if at >= d {
			return nil, io.EOF
		}
		in, out := min(logNormal(1000), 8000), min(logNormal(250), 2000)
		off := rng.IntN(len(pool) - 4*in)
		t := trace.Turn{InputTokens: in, OutputTokens: out, MaxTokens: out, IgnoreEOS: true, Prompt: strings.Clone(pool[off : off+4*in])}
		if index%4 == 0 {
			t.System, t.SystemTokens = pool[index%2*4096:][:4096], 1024
			t.InputTokens += 1024
		}
		s := &trace.Session{Client: "c", Index: index, AtUS: at.Microseconds(), Model: "m", API: "chat", Turns: []trace.Turn{t}}
		index++
		return s, nil
	}
}

// streamInput is the Input of chatStream(seed, d, rate), its totals from
// a first pass over the same sessions.
func streamInput(tb testing.TB, seed uint64, d time.Duration, rate float64) Input {
	tb.Helper()
	in := Input{Next: chatStream(seed, d, rate)}
	first := chatStream(seed, d, rate)
	for {
		s, err := first()
		if err == io.EOF {
			return in
		}
		in.Requests += len(s.Turns)
		in.Text.Add(s)
	}
}

func TestRunInputWritesRunsRecords(t *testing.T) {
	t.Parallel()
	ss, err := drain(chatStream(3, 3*time.Minute, 20))
	if err != nil {
		t.Fatal(err)
	}
	cfg := llamaH100(t)
	cfg.Replicas = 2
	want, wantEnd := mustRun(t, cfg, header(0), ss)
	var got collect
	end, err := RunInput(context.Background(), cfg, header(0), streamInput(t, 3, 3*time.Minute, 20), &got)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 3000 || !reflect.DeepEqual(got.recs, want) {
		t.Errorf("streamed: %d records, held: %d; want the same records (and thousands)", len(got.recs), len(want))
	}
	if end != wantEnd {
		t.Errorf("streamed end line %+v, held %+v", end, wantEnd)
	}
}

func TestRunInputRefusesSessionsOutOfOrder(t *testing.T) {
	t.Parallel()
	ss := []*trace.Session{session(0, 2000, 16, 2), session(1, 1000, 16, 2)}
	next := func() (*trace.Session, error) {
		if len(ss) == 0 {
			return nil, io.EOF
		}
		s := ss[0]
		ss = ss[1:]
		return s, nil
	}
	_, err := RunInput(context.Background(), Config{Cost: stepCost(1)}, header(0), Input{Next: next, Requests: 2}, &collect{})
	if err == nil || !strings.Contains(err.Error(), "offset order") {
		t.Errorf("sessions out of order: error %v, want one saying they must come in offset order", err)
	}
}

// peakHeap runs in on two H100 replicas, which keep up with 20 sessions/s
// (a queue growing without end would hold ever more requests in flight),
// with records discarded, and returns the most heap in use after a
// collection, sampled every 2,000 sessions.
func peakHeap(tb testing.TB, in Input) (peak uint64, sessions int) {
	tb.Helper()
	next := in.Next
	var ms runtime.MemStats
	in.Next = func() (*trace.Session, error) {
		if sessions%2000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		sessions++
		return next()
	}
	cfg := llamaH100(tb)
	cfg.Replicas = 2
	if _, err := RunInput(context.Background(), cfg, header(0), in, discard{}); err != nil {
		tb.Fatal(err)
	}
	return peak, sessions
}

// TestRunInputHeapIsFlat checks that a four times longer run of the same
// traffic holds about as much heap: sessions are dropped as they end.
func TestRunInputHeapIsFlat(t *testing.T) {
	short, n := peakHeap(t, streamInput(t, 5, 2*time.Minute, 20))
	long, m := peakHeap(t, streamInput(t, 5, 8*time.Minute, 20))
	t.Logf("peak heap %d KB for %d sessions, %d KB for %d", short>>10, n, long>>10, m)
	// Held whole, the longer run's 7,000 more prompts of 4 KB would add 28 MB.
	if long > short+8<<20 {
		t.Errorf("peak heap %d KB for %d sessions, %d KB for %d: want about the same", short>>10, n, long>>10, m)
	}
}

// BenchmarkSimHeapPerRequest streams chat at 20 sessions/s for longer and
// longer and reports the peak heap in use and its share per request,
// which falls as the run grows when memory holds only what is in flight.
func BenchmarkSimHeapPerRequest(b *testing.B) {
	for _, d := range []time.Duration{time.Hour, 4 * time.Hour, 24 * time.Hour} {
		b.Run(d.String(), func(b *testing.B) {
			var peak uint64
			var n int
			for b.Loop() {
				peak, n = peakHeap(b, streamInput(b, 1, d, 20))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak_heap_MB")
			b.ReportMetric(float64(peak)/float64(n), "heap_B/request")
		})
	}
}
