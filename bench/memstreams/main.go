// Command memstreams measures surge's resident memory per stream in
// flight: it holds -c long streams open through the real client and driver
// (closed loop, one request per worker) against bench/zeroserver -itl,
// and at -at reads the process's resident set (VmRSS) and Go's memory
// statistics, writes a heap profile to -prof, and compares them with the
// same readings taken before the first request.
//
//	go run ./bench/zeroserver -itl 100ms &
//	go run ./bench/memstreams -c 10000 -tokens 500 -at 20s -prof heap.pprof
//	go tool pprof -sample_index=inuse_space -top heap.pprof
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"surge/client"
	"surge/driver"
	"surge/trace"
)

func main() {
	target := flag.String("target", "http://127.0.0.1:18000", "zeroserver -itl base URL")
	conc := flag.Int("c", 10000, "streams held open")
	tokens := flag.Int("tokens", 500, "max_tokens of every stream")
	at := flag.Duration("at", 20*time.Second, "when to take the readings, from the start")
	prof := flag.String("prof", "", "heap profile written at -at")
	flag.Parse()

	cl, err := client.New(client.Config{BaseURL: *target, MaxConns: *conc})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close()
	h := trace.Header{Text: true, Salt: trace.SaltNone, Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: *conc}}}
	ss := make([]*trace.Session, *conc)
	for i := range ss {
		ss[i] = &trace.Session{Client: "c", Index: i, Model: "m", API: "completions",
			Turns: []trace.Turn{{InputTokens: 100, OutputTokens: *tokens, MaxTokens: *tokens, Prompt: strings.Repeat(" tok", 100)}}}
	}
	d, err := driver.New(driver.Config{Client: cl, Stream: true, Warmup: -1}, h, ss)
	if err != nil {
		log.Fatal(err)
	}
	rw, err := trace.NewRecordWriter(io.Discard, trace.RunHeader{Target: *target})
	if err != nil {
		log.Fatal(err)
	}
	var mu sync.Mutex
	classes := map[string]int{}
	sink := sinkFunc(func(r *trace.Record) error {
		mu.Lock()
		classes[r.ErrorClass+" "+r.Error[:min(len(r.Error), 60)]]++
		mu.Unlock()
		return rw.Write(r)
	})
	before := read()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := d.Run(ctx, time.Now(), sink); err != nil {
			log.Print(err)
		}
	}()
	time.Sleep(*at)
	p := d.Progress()
	after := read()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	cancel()
	<-done
	mu.Lock()
	for k, v := range classes {
		fmt.Printf("  records %q: %d\n", k, v)
	}
	mu.Unlock()
	n := float64(max(p.InFlight, 1))
	fmt.Printf("memstreams c=%d tokens=%d in_flight=%d done=%d\n", *conc, *tokens, p.InFlight, p.Done)
	fmt.Printf("  before: %s\n  at %s: %s\n", before, *at, after)
	fmt.Printf("  per stream in flight: rss %.1f KiB, heap in use %.1f KiB, stacks %.1f KiB, goroutines %.2f\n",
		(after.rss-before.rss)/n/1024, (after.heap-before.heap)/n/1024, (after.stack-before.stack)/n/1024,
		float64(after.goroutines-before.goroutines)/n)
}

// sinkFunc adapts a function to driver.Sink.
type sinkFunc func(*trace.Record) error

func (f sinkFunc) Write(r *trace.Record) error { return f(r) }

// reading is one set of memory figures, in bytes.
type reading struct {
	rss, heap, stack float64
	goroutines       int
}

func (r reading) String() string {
	return fmt.Sprintf("rss %.1f MiB, heap in use %.1f MiB, stacks %.1f MiB, %d goroutines",
		r.rss/(1<<20), r.heap/(1<<20), r.stack/(1<<20), r.goroutines)
}

// read takes the readings after a garbage collection.
func read() reading {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return reading{rss: vmRSS(), heap: float64(m.HeapInuse), stack: float64(m.StackInuse), goroutines: runtime.NumGoroutine()}
}

// vmRSS is the process's resident set from /proc/self/status, in bytes.
func vmRSS() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb * 1024
		}
	}
	return 0
}
