package client

import (
	"compress/gzip"
	"context"
	"net/http"
	"strings"
	"testing"

	"surge/trace"
)

// TestContentEncoding: the client asks for identity encoding; a stream a
// server gzips anyway is decoded, event by event, and counted as any other;
// an encoding surge does not decode, or a gzip body that does not decode,
// fails as malformed or broken with a message naming the encoding. Before,
// a gzip stream was read as SSE and failed as "ended without [DONE]".
func TestContentEncoding(t *testing.T) {
	t.Parallel()
	events := []string{roleChunk(), contentChunk("a"), contentChunk("b"), finishChunk("stop"), usageChunk(3, 2), "[DONE]"}
	tests := []struct {
		name     string
		encoding string
		write    func(w http.ResponseWriter)
		class    string
		errHas   string
	}{
		{"gzip stream", "gzip", func(w http.ResponseWriter) {
			z := gzip.NewWriter(w)
			for _, e := range events {
				z.Write([]byte("data: " + e + "\n\n"))
				z.Flush()
				w.(http.Flusher).Flush()
			}
			z.Close()
		}, "", ""},
		{"brotli", "br", func(w http.ResponseWriter) { w.Write([]byte("\x1b\x03\x00")) },
			trace.ErrStream, `Content-Encoding "br", which surge does not decode`},
		{"gzip that is not", "gzip", func(w http.ResponseWriter) { w.Write([]byte("data: not gzip\n\n")) },
			trace.ErrConnection, "decoding the gzip-encoded response body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var asked string
			c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
				asked = r.Header.Get("Accept-Encoding")
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Content-Encoding", tt.encoding)
				tt.write(w)
			})
			res := c.Do(context.Background(), chatReq())
			if asked != acceptEncoding {
				t.Errorf("Accept-Encoding %q, want %q", asked, acceptEncoding)
			}
			if tt.class == "" {
				checkOK(t, res)
				if res.Chunks != 2 || res.CompletionTokens != 2 {
					t.Errorf("chunks %d, completion tokens %d; want 2 and 2", res.Chunks, res.CompletionTokens)
				}
				return
			}
			if res.ErrClass != tt.class || !strings.Contains(res.Err, tt.errHas) {
				t.Errorf("class %q, error %q; want %q with %q", res.ErrClass, res.Err, tt.class, tt.errHas)
			}
		})
	}
}
