package client

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The tests of this file measure the heap, so they are not parallel: they
// run before the package's parallel tests start.

// TestMemoryPerStream holds 2,000 streams in flight at once and bounds
// the heap each costs, client and test server together (about 48 KB when
// written; 10,000 streams then need under 0.5 GB).
func TestMemoryPerStream(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 connections")
	}
	const n = 2000
	release := make(chan struct{})
	var streaming atomic.Int64
	c, _ := serve(t, Config{MaxConns: n}, func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		s.send(contentChunk("a"))
		streaming.Add(1)
		<-release
		s.send(finishChunk("stop"))
		s.send("[DONE]")
	})
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range n {
		wg.Go(func() {
			if res := c.Do(context.Background(), chatReq()); res.ErrClass != "" {
				failed.Add(1)
			}
		})
	}
	for streaming.Load() < n {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // let every client read its first event
	runtime.GC()
	runtime.ReadMemStats(&during)
	close(release)
	wg.Wait()
	per := (int64(during.HeapInuse) - int64(before.HeapInuse)) / n
	if per > 80<<10 || failed.Load() > 0 {
		t.Errorf("%d KB of heap per stream in flight (%d failed), want under 80 KB", per>>10, failed.Load())
	}
}

// TestMemoryHugeResponse reads a 100 MB stream up to the default cap of
// 64 MiB and bounds what the client allocated meanwhile: the body is
// parsed as it goes, never kept.
func TestMemoryHugeResponse(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB through a socket")
	}
	c, _ := serve(t, Config{}, endless)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := c.Do(context.Background(), chatReq())
	runtime.ReadMemStats(&after)
	if res.ErrClass != "too_large" {
		t.Fatalf("class %q (%s), want too_large at the 64 MiB cap", res.ErrClass, res.Err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
		t.Errorf("allocated %d MiB reading 64 MiB, want under 32 MiB", got>>20)
	}
}

// TestMemoryEndlessLine reads a stream that is one line without an end
// and bounds what the client allocated: the line is cut at the event cap
// (1 MiB), not carried to the 64 MiB response cap. Before the cap the
// parser's line buffer grew to the response cap, twice over.
func TestMemoryEndlessLine(t *testing.T) {
	if testing.Short() {
		t.Skip("megabytes through a socket")
	}
	c, _ := serve(t, Config{}, endlessLine)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := c.Do(context.Background(), chatReq())
	runtime.ReadMemStats(&after)
	if res.ErrClass != "too_large" || !strings.Contains(res.Err, `starting "data: {\"choices\":[{\"delta\":{\"content\":\"xxx`) {
		t.Fatalf("class %q (%s), want too_large at the 1 MiB event cap quoting the line", res.ErrClass, res.Err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("allocated %d MiB reading an endless line, want under 8 MiB", got>>20)
	}
}

// TestMemoryWholeBodyCap reads a non-streamed answer that never ends and
// bounds what the client allocated: its buffer grows to the response cap
// and a byte past it, not on to twice the cap.
func TestMemoryWholeBodyCap(t *testing.T) {
	if testing.Short() {
		t.Skip("megabytes through a socket")
	}
	const limit = 8 << 20
	c, _ := serve(t, Config{MaxResponseBytes: limit}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		block := strings.Repeat(" ", 64<<10)
		for n := 0; n < 4*limit; n += len(block) {
			if _, err := io.WriteString(w, block); err != nil {
				return
			}
		}
	})
	req := chatReq()
	req.Stream = false
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := c.Do(context.Background(), req)
	runtime.ReadMemStats(&after)
	if res.ErrClass != "too_large" {
		t.Fatalf("class %q (%s), want too_large at the cap", res.ErrClass, res.Err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 5*limit/2 {
		t.Errorf("allocated %d MiB reading to an %d MiB cap, want at most %d MiB", got>>20, limit>>20, 5*limit/2>>20)
	}
}
