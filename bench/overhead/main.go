// Command overhead measures what surge adds to the time-to-first-token it
// reports: the client's first-token instant minus the instant the server
// wrote that token, read from bench/zeroserver -stamp (the first token's
// text is the server's Unix time in ns just before the write; both
// processes read the same system clock). It drives the real client and
// driver, open loop at -rate or closed loop at -c, with prompts of about
// -prompt tokens, and prints the median, p99 and max of that difference,
// of the schedule lag (sent − intended) and of the TTFT itself.
//
//	go run ./bench/zeroserver -stamp -flush each &
//	go run ./bench/overhead -rate 100 -n 2000
//	go run ./bench/overhead -rate 10 -n 200 -prompt 100000
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"surge/client"
	"surge/driver"
	"surge/trace"
)

func main() {
	target := flag.String("target", "http://127.0.0.1:18000", "zeroserver -stamp base URL")
	rate := flag.Float64("rate", 100, "open-loop requests per second (constant arrivals)")
	conc := flag.Int("c", 0, "closed loop at this concurrency instead of -rate")
	n := flag.Int("n", 2000, "requests")
	prompt := flag.Int("prompt", 100, "prompt length in tokens (about 4 bytes each)")
	tokens := flag.Int("tokens", 64, "max_tokens")
	flag.Parse()

	cl, err := client.New(client.Config{BaseURL: *target, MaxConns: max(*conc, 256)})
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close()
	stamped := &stamper{Doer: cl}
	h := trace.Header{Text: true, Salt: trace.SaltNone, Clients: []trace.ClientInfo{{Name: "o", Model: "m", Concurrency: *conc}}}
	text := strings.Repeat(" tok", *prompt)
	ss := make([]*trace.Session, *n)
	for i := range ss {
		at := int64(float64(i) * 1e6 / *rate)
		ss[i] = &trace.Session{Client: "o", Index: i, AtUS: at, Model: "m", API: "completions",
			Turns: []trace.Turn{{InputTokens: *prompt, OutputTokens: *tokens, MaxTokens: *tokens, Prompt: text}}}
	}
	d, err := driver.New(driver.Config{Client: stamped, Stream: true, Warmup: -1}, h, ss)
	if err != nil {
		log.Fatal(err)
	}
	rw, err := trace.NewRecordWriter(io.Discard, trace.RunHeader{Target: *target})
	if err != nil {
		log.Fatal(err)
	}
	var lags, ttfts []float64
	sink := sinkFunc(func(r *trace.Record) error {
		lags = append(lags, float64(r.SentUS-r.IntendedUS))
		if r.OK() {
			ttfts = append(ttfts, float64(r.TTFTUS))
		}
		return rw.Write(r)
	})
	if _, err := d.Run(context.Background(), time.Now().Add(100*time.Millisecond), sink); err != nil {
		log.Fatal(err)
	}
	mode := fmt.Sprintf("rate=%g", *rate)
	if *conc > 0 {
		mode = fmt.Sprintf("c=%d", *conc)
	}
	fmt.Printf("overhead %s prompt=%d n=%d bad_stamps=%d\n", mode, *prompt, *n, stamped.bad)
	fmt.Println("  measure_us " + stats(stamped.over))
	fmt.Println("  lag_us     " + stats(lags))
	fmt.Println("  ttft_us    " + stats(ttfts))
}

// stamper sends requests with KeepText and keeps, for each stream, the
// client's first-token instant minus the server's stamp, in µs.
type stamper struct {
	driver.Doer
	mu   sync.Mutex
	over []float64
	bad  int
}

func (s *stamper) Do(ctx context.Context, req *client.Request) *client.Result {
	req.KeepText = true
	res := s.Doer.Do(ctx, req)
	ns, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(res.Text[:min(20, len(res.Text))], "t")), 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil || res.FirstToken.IsZero() {
		s.bad++
		return res
	}
	s.over = append(s.over, float64(res.FirstToken.UnixNano()-ns)/1e3)
	return res
}

// sinkFunc adapts a function to driver.Sink.
type sinkFunc func(*trace.Record) error

func (f sinkFunc) Write(r *trace.Record) error { return f(r) }

// stats is "p50 X p99 Y max Z n N" of v.
func stats(v []float64) string {
	if len(v) == 0 {
		return "n 0"
	}
	slices.Sort(v)
	q := func(p float64) float64 { return v[min(len(v)-1, int(p*float64(len(v))))] }
	return fmt.Sprintf("p50 %.0f p99 %.0f max %.0f n %d", q(0.5), q(0.99), v[len(v)-1], len(v))
}
