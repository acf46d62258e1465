// Command minclient is the reference for surge's streaming ceiling: the
// least a Go client can do with a streamed completion. Each of -c workers
// posts a 64-token streaming request, reads the body with a 16 KiB buffer
// counting events (blank-line separators), and posts the next one; no
// timing per event, no parsing, no records. It prints the completed
// requests and token events per second over -d, after -warmup.
//
//	go run ./bench/minclient -target http://127.0.0.1:18000 -c 64 -d 5s
//
// With -stamp-rate it is instead the reference for the measurement
// overhead (see stamp.go).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	target := flag.String("target", "http://127.0.0.1:18000", "server base URL")
	conc := flag.Int("c", 64, "concurrent streams")
	dur := flag.Duration("d", 5*time.Second, "measured duration")
	warm := flag.Duration("warmup", 500*time.Millisecond, "unmeasured lead-in")
	tokens := flag.Int("tokens", 64, "max_tokens of every request")
	stampRate := flag.Float64("stamp-rate", 0, "instead: this many requests a second, one at a time, timing the first token against zeroserver -stamp")
	stampN := flag.Int("n", 1000, "requests of -stamp-rate")
	flag.Parse()
	tr := &http.Transport{MaxIdleConns: *conc, MaxIdleConnsPerHost: *conc, DisableCompression: true}
	url := *target + "/v1/completions"
	body := fmt.Appendf(nil, `{"model":"m","prompt":"Hello there, how are you?","max_tokens":%d,"stream":true}`, *tokens)
	if *stampRate > 0 {
		stampRun(tr, url, body, *stampRate, *stampN)
		return
	}

	var measuring atomic.Bool
	var reqs, events atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range *conc {
		wg.Go(func() {
			buf := make([]byte, 16<<10)
			for ctx.Err() == nil {
				n, err := stream(ctx, tr, url, body, buf)
				if err != nil {
					if ctx.Err() == nil {
						log.Fatal(err)
					}
					return
				}
				if measuring.Load() {
					reqs.Add(1)
					events.Add(int64(n))
				}
			}
		})
	}
	time.Sleep(*warm)
	measuring.Store(true)
	start := time.Now()
	time.Sleep(*dur)
	measuring.Store(false)
	secs := time.Since(start).Seconds()
	cancel()
	wg.Wait()
	// Token events: every event but the usage chunk and [DONE].
	r := float64(reqs.Load()) / secs
	fmt.Printf("minclient c=%d req/s=%.0f token_events/s=%.0f events/s=%.0f\n",
		*conc, r, r*float64(*tokens), float64(events.Load())/secs)
}

// stream sends one request and returns the number of events in its body.
func stream(ctx context.Context, tr *http.Transport, url string, body, buf []byte) (int, error) {
	resp, err := post(ctx, tr, url, body)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, last := 0, byte(0)
	for {
		k, err := resp.Body.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte("\n\n"))
			if last == '\n' && buf[0] == '\n' {
				n++
			}
			last = buf[k-1]
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// post sends body as JSON to url and returns the response.
func post(ctx context.Context, tr *http.Transport, url string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return tr.RoundTrip(req)
}
