package driver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"surge/client"
	"surge/trace"
)

// oneThreadTarget, when set, makes TestPoissonOneThread the child that
// drives the load against the server at this URL.
const oneThreadTarget = "SURGE_TEST_ONE_THREAD_TARGET"

// oneThreadRate and oneThreadSpan are the child's load: Poisson arrivals
// at this rate for this long.
const (
	oneThreadRate = 3000
	oneThreadSpan = 3 * time.Second
)

// TestPoissonOneThread drives Poisson arrivals at 3,000 req/s for 3 s
// through the real client, from a child process with GOMAXPROCS=1 (as in
// a container of one CPU), against a zero-delay streaming server in this
// process. Always checked: every session is recorded once, none sent
// before its time. With SURGE_STRICT_TIMING, where .ci/run runs it alone,
// the sends must also keep up with the schedule: a send rate at least 99%
// of the scheduled one. A dispatcher that sleeps in the kernel holding the
// only processor (a nanosleep of the last 2 ms before each send) fell
// behind there and never caught up (BENCHMARKS.md, "One scheduler
// thread").
func TestPoissonOneThread(t *testing.T) {
	if target := os.Getenv(oneThreadTarget); target != "" {
		oneThreadChild(t, target)
		return
	}
	if testing.Short() {
		t.Skip("takes 4 s of real time")
	}
	srv := httptest.NewServer(zeroDelay(4))
	defer srv.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestPoissonOneThread$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", oneThreadTarget+"="+srv.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var r oneThreadResult
	if err := r.parse(string(out)); err != nil {
		t.Fatalf("%v in the child's output:\n%s", err, out)
	}
	t.Logf("GOMAXPROCS=%d: %d of %d sessions recorded, %d failed; sent %.0f/s of %.0f/s scheduled (%.3f); lag p50 %dus p99 %dus max %dus",
		r.procs, r.records, r.sessions, r.failed, r.sent, r.scheduled, r.sent/r.scheduled, r.p50, r.p99, r.max)
	if r.procs != 1 {
		t.Errorf("the child ran with GOMAXPROCS=%d, want 1", r.procs)
	}
	if r.records != r.sessions {
		t.Errorf("%d records of %d sessions", r.records, r.sessions)
	}
	if r.min < 0 {
		t.Errorf("a session was sent %dus before its time", -r.min)
	}
	if strictTiming() && r.sent < 0.99*r.scheduled {
		t.Errorf("sent %.0f/s of %.0f/s scheduled (%.3f), want at least 99%%", r.sent, r.scheduled, r.sent/r.scheduled)
	}
}

// TestOverdueSessionsGoOneByOne runs, on one scheduler thread, sessions
// all due at once (a dispatcher that fell behind): each must be under way
// before the next is launched, rather than every one started at once,
// when each would need a connection of its own (a dial storm that made a
// dispatcher at GOMAXPROCS=1 fall further behind). Not parallel, so the
// goroutines counted are this test's.
func TestOverdueSessionsGoOneByOne(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const n = 256
	h, ss := openTrace(make([]int64, n), make([]int, n))
	var most int // goroutines seen by the busiest call; calls are one at a time here, but the race detector needs the lock
	var mu sync.Mutex
	do := doerFunc(func(_ context.Context, _ *client.Request) *client.Result {
		mu.Lock()
		most = max(most, runtime.NumGoroutine())
		mu.Unlock()
		return instant{}.Do(context.Background(), nil)
	})
	d := mustNew(t, Config{Client: do}, h, ss)
	before := runtime.NumGoroutine()
	out := &sink{}
	if _, err := d.Run(context.Background(), time.Now(), out); err != nil {
		t.Fatal(err)
	}
	if len(out.recs) != n {
		t.Fatalf("%d records, want %d", len(out.recs), n)
	}
	extra := most - before
	t.Logf("%d goroutines more than before Run at the busiest of %d overdue sends", extra, n)
	if extra > n/8 {
		t.Errorf("%d goroutines more than before Run at the busiest send, want at most %d: the overdue sessions were launched all at once", extra, n/8)
	}
}

// oneThreadResult is what the child reports, on one line of its output.
type oneThreadResult struct {
	procs, sessions, records, failed int
	sent, scheduled                  float64 // per second
	min, p50, p99, max               int64   // schedule lag, µs
}

// format is the line's layout, for fmt.Sprintf and fmt.Sscanf.
const oneThreadLine = "onethread: procs=%d sessions=%d records=%d failed=%d sent=%f scheduled=%f lag=%d,%d,%d,%d\n"

// String formats r as the child's line.
func (r *oneThreadResult) String() string {
	return fmt.Sprintf(oneThreadLine, r.procs, r.sessions, r.records, r.failed, r.sent, r.scheduled, r.min, r.p50, r.p99, r.max)
}

// parse reads r from the child's output.
func (r *oneThreadResult) parse(out string) error {
	i := strings.Index(out, "onethread: ")
	if i < 0 {
		return fmt.Errorf("no result line")
	}
	_, err := fmt.Sscanf(out[i:], oneThreadLine, &r.procs, &r.sessions, &r.records, &r.failed, &r.sent, &r.scheduled, &r.min, &r.p50, &r.p99, &r.max)
	return err
}

// oneThreadChild runs the child's load against target and prints the
// result line; the parent judges it.
func oneThreadChild(t *testing.T, target string) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := trace.Header{Text: true, Clients: []trace.ClientInfo{{Name: "o", Model: "m"}}}
	var ss []*trace.Session
	for at := rng.ExpFloat64() / oneThreadRate; at < oneThreadSpan.Seconds(); at += rng.ExpFloat64() / oneThreadRate {
		ss = append(ss, &trace.Session{
			Client: "o", Index: len(ss), AtUS: int64(at * 1e6), API: "completions",
			Turns: []trace.Turn{{InputTokens: 16, OutputTokens: 4, MaxTokens: 4, Prompt: strings.Repeat(" a", 16)}},
		})
	}
	c, err := client.New(client.Config{BaseURL: target})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d := mustNew(t, Config{Client: c, Stream: true}, h, ss)
	out := &sink{}
	if _, err := d.Run(context.Background(), time.Now().Add(50*time.Millisecond), out); err != nil {
		t.Fatal(err)
	}
	r := oneThreadResult{procs: runtime.GOMAXPROCS(0), sessions: len(ss), records: len(out.recs)}
	var lag, sent, intended []int64
	for _, rec := range out.recs {
		if !rec.OK() {
			r.failed++
			continue
		}
		lag = append(lag, rec.SentUS-rec.IntendedUS)
		sent = append(sent, rec.SentUS)
		intended = append(intended, rec.IntendedUS)
	}
	if n := len(lag); n >= 2 {
		slices.Sort(lag)
		r.min, r.p50, r.p99, r.max = lag[0], lag[n/2], lag[n*99/100], lag[n-1]
		r.sent = float64(n-1) / (float64(slices.Max(sent)-slices.Min(sent)) / 1e6)
		r.scheduled = float64(n-1) / (float64(slices.Max(intended)-slices.Min(intended)) / 1e6)
	}
	fmt.Print(r.String())
}

// zeroDelay is a streaming completions server that answers every request
// at once, in one write: n one-token events, a usage chunk and [DONE].
func zeroDelay(n int) http.Handler {
	var b strings.Builder
	for range n {
		b.WriteString(`data: {"choices":[{"index":0,"text":" a"}]}` + "\n\n")
	}
	fmt.Fprintf(&b, `data: {"choices":[],"usage":{"prompt_tokens":16,"completion_tokens":%d}}`+"\n\ndata: [DONE]\n\n", n)
	body := []byte(b.String())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	})
}
