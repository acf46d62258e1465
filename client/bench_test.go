package client

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// zeroDelayBody is a 64-token vLLM-style stream.
var zeroDelayBody = func() string {
	var sb strings.Builder
	sb.WriteString("data: " + roleChunk() + "\n\n")
	for range 64 {
		sb.WriteString("data: " + contentChunk(" token") + "\n\n")
	}
	sb.WriteString("data: " + finishChunk("length") + "\n\ndata: " + usageChunk(100, 64) + "\n\ndata: [DONE]\n\n")
	return sb.String()
}()

// BenchmarkDoStream measures streamed requests per second against a
// zero-delay local server sharing the machine: "once" writes each response
// in one write (the client's own ceiling), "each" flushes every event as a
// real server does (the server's ceiling on a small machine).
func BenchmarkDoStream(b *testing.B) {
	for _, mode := range []string{"once", "each"} {
		b.Run("flush="+mode, func(b *testing.B) {
			whole := []byte(zeroDelayBody)
			var events [][]byte
			for _, e := range strings.SplitAfter(zeroDelayBody, "\n\n") {
				events = append(events, []byte(e))
			}
			c, _ := serve(b, Config{MaxConns: 64}, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				if mode == "once" {
					w.Write(whole)
					return
				}
				f := w.(http.Flusher)
				for _, e := range events {
					w.Write(e)
					f.Flush()
				}
			})
			b.ReportAllocs()
			b.SetParallelism(32)
			b.RunParallel(func(pb *testing.PB) {
				req := &Request{API: "chat", Model: "m", Prompt: "Hello there, how are you?", MaxTokens: 64, Stream: true}
				for pb.Next() {
					if res := c.Do(context.Background(), req); res.ErrClass != "" || res.Chunks != 64 {
						b.Errorf("class %q err %q chunks %d", res.ErrClass, res.Err, res.Chunks)
						return
					}
				}
			})
			s := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/s, "req/s")
			b.ReportMetric(float64(b.N*68)/s, "events/s")
		})
	}
}
