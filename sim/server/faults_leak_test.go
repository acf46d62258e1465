package server

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"
	"time"
)

// TestFaultsLeakNothing sends requests through every fault kind, a restart
// that cuts stalled requests, and clients that give up during stalls. The
// engine must end empty (no KV block leaked) and, once the server stops,
// no goroutine may be left behind.
//
// Not parallel: it counts the process's goroutines, and parallel tests
// only start once the sequential ones are done.
func TestFaultsLeakNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Run("serve", func(t *testing.T) {
		s, ts, _ := faultServer(t, "stall-headers=2s:0.2,stall-stream=2s:0.2,reset:0.1,reset-stream:0.2,"+
			"broken-sse:0.2,status=429:0.1,restart=500ms@700ms", Config{})
		client := *ts.Client()
		client.Timeout = time.Second // some stalled clients give up
		wave := func(n int) {
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					body := chatBody(fmt.Sprintf("request %d", i), 50, i%2 == 0)
					body["ignore_eos"] = true
					send(t, &client, ts.URL, body)
				})
			}
			wg.Wait()
		}
		wave(40) // before and across the restart at 700 ms
		for time.Since(s.start) < 1300*time.Millisecond {
			time.Sleep(10 * time.Millisecond)
		}
		wave(20) // after it
		waitDrained(t, s)
		if n := faultCount(t, ts, "restart_cut"); n < 1 {
			t.Errorf("the restart cut %v requests, want some stalled ones", n)
		}
		if n := s.Stats().Finished; n < 1 {
			t.Errorf("%d requests finished, want some served", n)
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			var stacks bytes.Buffer
			pprof.Lookup("goroutine").WriteTo(&stacks, 1)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), stacks.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
