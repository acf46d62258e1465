// Command hostile measures surge's peak resident memory against a hostile
// server: -c streams at once through the real client, with its default
// settings (the 64 MiB response cap, the 1 MiB event cap), and the real
// driver, one request each, against a server in a second process (this
// command with -serve) that sends one SSE line that never ends (-serve
// line) or tiny token events without end (-serve events), as fast as the
// client reads. It keeps every record, as a run does for its report, and
// prints the peak resident set (VmHWM), the records' size as JSON and how
// the requests ended.
//
//	go build -o /tmp/hostile ./bench/hostile
//	/tmp/hostile -serve events -addr 127.0.0.1:18100 &
//	/tmp/hostile -target http://127.0.0.1:18100 -c 64 [-drain 10m]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"surge/client"
	"surge/driver"
	"surge/trace"
)

func main() {
	serve := flag.String("serve", "", "serve hostile streams instead: line or events")
	addr := flag.String("addr", "127.0.0.1:18100", "address to serve on, with -serve")
	target := flag.String("target", "http://127.0.0.1:18100", "the hostile server's base URL")
	conc := flag.Int("c", 64, "streams at once")
	drain := flag.Duration("drain", driver.DefaultDrain, "how long the streams may take (surge run's --drain)")
	flag.Parse()
	if *serve != "" {
		log.Fatal(http.ListenAndServe(*addr, handler(*serve)))
	}
	if err := measure(*target, *conc, *drain); err != nil {
		log.Fatal(err)
	}
}

// handler serves every request with a stream of the kind named.
func handler(kind string) http.HandlerFunc {
	head, block := `data: {"choices":[{"delta":{"content":"`, strings.Repeat("x", 64<<10)
	if kind == "events" {
		head, block = "", strings.Repeat(`data: {"choices":[{"delta":{"content":"x"}}]}`+"\n\n", 1000)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, head)
		for {
			if _, err := io.WriteString(w, block); err != nil {
				return // the client went away
			}
		}
	}
}

// measure runs conc streams against target, draining for drain, and
// prints the readings.
func measure(target string, conc int, drain time.Duration) error {
	cl, err := client.New(client.Config{BaseURL: target, MaxConns: conc})
	if err != nil {
		return err
	}
	defer cl.Close()
	h := trace.Header{Text: true, Salt: trace.SaltNone, Clients: []trace.ClientInfo{{Name: "c", Model: "m", Concurrency: conc}}}
	ss := make([]*trace.Session, conc)
	for i := range ss {
		ss[i] = &trace.Session{Client: "c", Index: i, Model: "m", API: "completions",
			Turns: []trace.Turn{{InputTokens: 10, OutputTokens: 100, MaxTokens: 100, Prompt: strings.Repeat(" tok", 10)}}}
	}
	d, err := driver.New(driver.Config{Client: cl, Stream: true, Warmup: -1, Drain: drain}, h, ss)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	var recs []trace.Record
	sink := sinkFunc(func(r *trace.Record) error {
		mu.Lock()
		defer mu.Unlock()
		recs = append(recs, *r)
		return nil
	})
	start := time.Now()
	if _, err := d.Run(context.Background(), start, sink); err != nil {
		return err
	}
	took := time.Since(start)
	classes := map[string]int{}
	var size, gaps int64
	for i := range recs {
		r := &recs[i]
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		size += int64(len(b))
		gaps += r.Gaps()
		classes[r.ErrorClass+" "+r.Error[:min(len(r.Error), 70)]]++
	}
	for k, v := range classes {
		fmt.Printf("  records %q: %d\n", k, v)
	}
	fmt.Printf("hostile c=%d: peak rss %.1f MiB; %d records, %.1f MiB as JSON, %d gaps; %.1f s\n",
		conc, status("VmHWM:")/(1<<20), len(recs), float64(size)/(1<<20), gaps, took.Seconds())
	return nil
}

// sinkFunc adapts a function to driver.Sink.
type sinkFunc func(*trace.Record) error

func (f sinkFunc) Write(r *trace.Record) error { return f(r) }

// status is a kB field of /proc/self/status, in bytes.
func status(field string) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb * 1024
		}
	}
	return 0
}
