// Command schedtrace drives Poisson open-loop arrivals through surge's
// driver and client against a server (bench/zeroserver) and prints how
// many were sent of those scheduled and the schedule lag, optionally
// writing a runtime/trace of the run for `go tool trace`.
//
//	taskset -c 1 env GOMAXPROCS=1 go run ./bench/schedtrace -target http://127.0.0.1:18000 -rate 3000 -trace /tmp/t.out
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	"surge/client"
	"surge/driver"
	strace "surge/trace"
)

func main() {
	target := flag.String("target", "http://127.0.0.1:18000", "server base URL")
	rate := flag.Float64("rate", 3000, "Poisson arrival rate, per second")
	secs := flag.Duration("duration", 3*time.Second, "how long to schedule")
	out := flag.String("trace", "", "write a runtime/trace here")
	prof := flag.String("cpuprofile", "", "write a CPU profile here")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*target, *rate, *secs, *out); err != nil {
		log.Print(err)
	}
}

// sink keeps the lag, send and intended instants of every record.
type sink struct {
	mu                  sync.Mutex
	lag, sent, intended []int64
}

// Write implements driver.Sink.
func (s *sink) Write(r *strace.Record) error {
	s.mu.Lock()
	s.lag = append(s.lag, r.SentUS-r.IntendedUS)
	s.sent = append(s.sent, r.SentUS)
	s.intended = append(s.intended, r.IntendedUS)
	s.mu.Unlock()
	return nil
}

// sentRate is the send rate as the report computes it: (n−1) over the
// span of the sends.
func (s *sink) sentRate() float64 { return span(s.sent) }

// schedRate is the scheduled rate, the same over the intended instants.
func (s *sink) schedRate() float64 { return span(s.intended) }

// span is (n−1) / (max − min) of µs offsets, per second.
func span(v []int64) float64 {
	if len(v) < 2 {
		return 0
	}
	return float64(len(v)-1) / (float64(slices.Max(v)-slices.Min(v)) / 1e6)
}

func run(target string, rate float64, secs time.Duration, out string) error {
	rng := rand.New(rand.NewPCG(1, 2))
	h := strace.Header{Text: true, Clients: []strace.ClientInfo{{Name: "o", Model: "m"}}}
	var ss []*strace.Session
	for at := 0.0; at < secs.Seconds(); at += rng.ExpFloat64() / rate {
		ss = append(ss, &strace.Session{Client: "o", Index: len(ss), AtUS: int64(at * 1e6), API: "completions",
			Turns: []strace.Turn{{InputTokens: 16, OutputTokens: 4, MaxTokens: 4, Prompt: "hello hello hello"}}})
	}
	c, err := client.New(client.Config{BaseURL: target, MaxConns: 10000})
	if err != nil {
		return err
	}
	defer c.Close()
	d, err := driver.New(driver.Config{Client: c, Stream: true}, h, ss)
	if err != nil {
		return err
	}
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return err
		}
		defer trace.Stop()
	}
	s := &sink{}
	start := time.Now().Add(50 * time.Millisecond)
	cpu0, wait0 := schedstat()
	end, err := d.Run(context.Background(), start, s)
	if err != nil {
		return err
	}
	cpu1, wait1 := schedstat()
	el := time.Since(start).Seconds()
	slices.Sort(s.lag)
	n := len(s.lag)
	q := func(p float64) float64 { return float64(s.lag[int(p*float64(n-1))]) / 1000 }
	fmt.Printf("GOMAXPROCS=%d rate %.0f: sent %d of %d, %.0f/s of %.0f/s scheduled (%.3f); lag p50 %.3f p99 %.3f max %.3f ms; cpu %.2f cores, waiting for a core %.2f\n",
		runtime.GOMAXPROCS(0), rate, end.Sent, len(ss), s.sentRate(), s.schedRate(), s.sentRate()/s.schedRate(), q(0.5), q(0.99), q(1),
		(cpu1-cpu0)/el, (wait1-wait0)/el)
	return nil
}

// schedstat sums, over the process's threads, the seconds run on a CPU
// and the seconds spent runnable waiting for one (/proc/self/task/*/schedstat).
func schedstat() (run, wait float64) {
	tasks, _ := filepath.Glob("/proc/self/task/*/schedstat")
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var r, w int64
		if _, err := fmt.Sscan(string(b), &r, &w); err == nil {
			run += float64(r) / 1e9
			wait += float64(w) / 1e9
		}
	}
	return run, wait
}
