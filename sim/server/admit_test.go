package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gatedTokenizer counts prompts in Encode and holds each there until open
// is closed; it reports each entry on entered.
type gatedTokenizer struct {
	open    chan struct{}
	entered chan struct{}
	now     atomic.Int32 // Encode calls in progress
	most    atomic.Int32 // the most at once
}

func (g *gatedTokenizer) Name() string { return "gated" }

func (g *gatedTokenizer) Encode(text string) []int {
	n := g.now.Add(1)
	defer g.now.Add(-1)
	for {
		m := g.most.Load()
		if n <= m || g.most.CompareAndSwap(m, n) {
			break
		}
	}
	g.entered <- struct{}{}
	<-g.open
	return make([]int, len(text)/4+1)
}

func (g *gatedTokenizer) Decode([]int) string { return "" }

// chatJSON is a chat request body for prompt.
func chatJSON(prompt string) []byte {
	b, _ := json.Marshal(chatBody(prompt, 2, false))
	return b
}

// TestDecodingIsBounded: the bodies decoded and tokenized at once stay
// within Config.MaxDecodeBytes; a request that finds no room within the
// queue wait is answered 503 with Retry-After rather than tokenized
// beside the others. Before, every request was tokenized at once.
func TestDecodingIsBounded(t *testing.T) {
	t.Parallel()
	tok := &gatedTokenizer{open: make(chan struct{}), entered: make(chan struct{}, 8)}
	s, err := New(Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond},
		Engine: engineSmall(), Tokenizer: tok, MaxDecodeBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	s.queueWait = 50 * time.Millisecond
	url := "http://" + serveOn(t, s) + "/v1/chat/completions"
	client := &http.Client{Timeout: time.Minute}
	first := make(chan int, 1)
	go func() {
		resp, err := client.Post(url, "application/json", bytes.NewReader(chatJSON(strings.Repeat("a ", 300))))
		if err != nil {
			first <- 0
			return
		}
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	<-tok.entered // the first request, 600 bytes and more, is being tokenized
	resp, err := client.Post(url, "application/json", bytes.NewReader(chatJSON(strings.Repeat("b ", 300))))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != busyRetryAfter {
		t.Errorf("second request beside the first: status %d, Retry-After %q; want 503 and %q",
			resp.StatusCode, resp.Header.Get("Retry-After"), busyRetryAfter)
	}
	close(tok.open)
	if st := <-first; st != http.StatusOK {
		t.Errorf("first request: status %d, want 200", st)
	}
	if m := tok.most.Load(); m != 1 {
		t.Errorf("%d prompts tokenized at once, want 1", m)
	}
	if got := s.decoding.inUse(); got != 0 {
		t.Errorf("decoding budget in use after the requests: %d bytes", got)
	}
}

// TestHeldBodiesAreBounded: bodies being read count against the held
// budget by their Content-Length, so clients that declare large bodies
// and send them slowly cannot make the server hold more than
// heldBodiesFactor × MaxBodyBytes; the next request is answered 503 with
// Retry-After and its connection closed, and room returns as the bodies
// end. Before, every connection could hold a body of MaxBodyBytes.
func TestHeldBodiesAreBounded(t *testing.T) {
	t.Parallel()
	const maxBody = 1000
	s, err := New(Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond},
		Engine: engineSmall(), MaxBodyBytes: maxBody, BodyTimeout: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	s.queueWait = 50 * time.Millisecond
	addr := serveOn(t, s)
	whole := chatJSON("hi")
	padded := append(bytes.Clone(whole), bytes.Repeat([]byte(" "), maxBody-len(whole))...)
	var conns []net.Conn
	for range heldBodiesFactor {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(time.Minute))
		io.WriteString(c, rawChat(string(padded[:10]), maxBody))
		conns = append(conns, c)
	}
	for s.held.inUse() < heldLimit(maxBody) {
		if t.Context().Err() != nil {
			t.Fatal("the slow bodies never filled the held budget")
		}
		runtime.Gosched()
	}
	url := "http://" + addr + "/v1/chat/completions"
	resp, err := http.Post(url, "application/json", bytes.NewReader(whole))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != busyRetryAfter || !resp.Close {
		t.Errorf("request beyond the held budget: status %d, Retry-After %q, close %v; want 503, %q, closed",
			resp.StatusCode, resp.Header.Get("Retry-After"), resp.Close, busyRetryAfter)
	}
	// One slow body ends: its request is answered and its room returns.
	conns[0].Write(padded[10:])
	end, err := http.ReadResponse(bufio.NewReader(conns[0]), nil)
	if err != nil {
		t.Fatal(err)
	}
	end.Body.Close()
	if end.StatusCode != http.StatusOK {
		t.Fatalf("completed slow body: status %d", end.StatusCode)
	}
	resp, err = http.Post(url, "application/json", bytes.NewReader(whole))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("request once room returned: status %d, want 200", resp.StatusCode)
	}
}

// TestLargeRequestsMemory: four 2 MB prompts at once cost no more heap
// than one after another, since one is decoded at a time, and the memory
// is returned to the operating system afterwards. Before, the four were
// tokenized at once (some 70 bytes of heap per byte of prompt) and the
// runtime kept the heap sized for that peak. Not parallel: it measures
// the process's heap.
func TestLargeRequestsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates some hundred MB")
	}
	s, err := New(Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond},
		Engine: engineSmall(), MaxDecodeBytes: 3 << 20})
	if err != nil {
		t.Fatal(err)
	}
	s.queueWait = time.Hour // a slow machine may take long to tokenize; the test measures bytes
	url := "http://" + serveOn(t, s) + "/v1/completions"
	body := func(i int) []byte {
		b, _ := json.Marshal(map[string]any{"model": testModel, "max_tokens": 2,
			"prompt": fmt.Sprintf("%d", i) + strings.Repeat("some words of a long prompt. ", 70_000)})
		return b
	}
	send := func(i int) {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body(i)))
		if err != nil {
			t.Error(err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest { // longer than the context
			t.Errorf("status %d, want 400", resp.StatusCode)
		}
	}
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	base := m.HeapSys
	send(0)
	send(1)
	runtime.ReadMemStats(&m)
	one := m.HeapSys - base // the heap one request at a time needs
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { send(2 + i) })
	}
	wg.Wait()
	runtime.ReadMemStats(&m)
	four := m.HeapSys - base
	retained := m.HeapSys - m.HeapReleased
	t.Logf("heap grown by %d MiB for one request at a time, %d MiB after four at once; %d MiB retained",
		one>>20, four>>20, retained>>20)
	if four > 2*one {
		t.Errorf("four requests at once grew the heap by %d MiB, one at a time by %d MiB: want at most twice",
			four>>20, one>>20)
	}
	if retained > base+one/2 {
		t.Errorf("after the requests %d MiB of heap retained, want under %d MiB (the heap before and half a request's peak)",
			retained>>20, (base+one/2)>>20)
	}
}
