// Package zeroserver is a zero-delay OpenAI-compatible streaming server,
// for measuring a client's own overhead: it answers every chat or
// completions request at once with one-token events, a last chunk with
// finish_reason "length" and the usage, then [DONE].
//
// By default the whole response goes out in a single write (the client's
// ceiling). Config.Each writes and flushes every event on its own, as a
// real server does; Config.ITL also waits between tokens. Config.Stamp
// puts the server's clock reading into the first token, so that a client
// on the same machine can subtract it from the time it saw that token.
//
// surge selftest serves it in process or in a process of its own, and
// bench/zeroserver is a command over it.
package zeroserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// DefaultTokens is the tokens of a response when neither Config.Tokens
// nor the request's max_tokens says.
const DefaultTokens = 64

// StampWidth is the width of a stamp: "t" and the Unix time in
// nanoseconds, left-aligned and padded with spaces.
const StampWidth = 20

// Config is how the server answers. The zero value answers each request
// with its max_tokens tokens in one write.
type Config struct {
	// Tokens is the tokens of every response. When it is positive the
	// request body is discarded unread; otherwise each response has the
	// request's max_tokens tokens, or DefaultTokens.
	Tokens int
	// Each writes and flushes every event on its own.
	Each bool
	// ITL is the wait between tokens; a positive ITL implies Each.
	ITL time.Duration
	// Stamp makes the first token's text a stamp: "t" and the Unix time
	// in nanoseconds taken just before the write that carries it.
	Stamp bool
}

// Handler returns the server's handler of /v1/chat/completions and
// /v1/completions.
func Handler(cfg Config) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/v1/chat/completions", handler(cfg, chatShape))
	mux.Handle("/v1/completions", handler(cfg, completionsShape))
	return mux
}

// Serve serves Handler(cfg) on ln until ctx ends, then closes the server
// and its connections.
func Serve(ctx context.Context, ln net.Listener, cfg Config) error {
	hs := &http.Server{Handler: Handler(cfg)}
	stop := context.AfterFunc(ctx, func() { hs.Close() })
	defer stop()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("zero-delay server: %w", err)
	}
	return nil
}

// shape is an endpoint's chunk: a token's (formatted with its text) and
// the last one's choice.
type shape struct{ token, last string }

var (
	chatShape        = shape{`{"choices":[{"index":0,"delta":{"content":"%s"}}]}`, `{"index":0,"delta":{},"finish_reason":"length"}`}
	completionsShape = shape{`{"choices":[{"index":0,"text":"%s"}]}`, `{"index":0,"text":"","finish_reason":"length"}`}
)

// response is a prepared answer of n tokens: its events, the whole of
// them, and where the first event's stamp goes.
type response struct {
	events [][]byte
	whole  []byte
	at     int
}

// handler answers one endpoint, preparing each length's response once.
func handler(cfg Config, sh shape) http.HandlerFunc {
	each := cfg.Each || cfg.ITL > 0
	var prepared sync.Map // tokens → *response
	return func(w http.ResponseWriter, r *http.Request) {
		n, err := tokens(cfg, r.Body)
		if err != nil {
			http.Error(w, `{"error":{"message":"bad request body"}}`, http.StatusBadRequest)
			return
		}
		resp := cached(&prepared, sh, n, cfg.Stamp)
		w.Header().Set("Content-Type", "text/event-stream")
		if !each {
			whole := resp.whole
			if cfg.Stamp {
				whole = bytes.Clone(whole)
				putStamp(whole[resp.at:])
			}
			w.Write(whole)
			return
		}
		events := resp.events
		if cfg.Stamp {
			events = slices.Clone(events)
			events[0] = bytes.Clone(events[0])
		}
		f, _ := w.(http.Flusher)
		for i, e := range events {
			if i > 0 && i < n && cfg.ITL > 0 {
				time.Sleep(cfg.ITL)
			}
			if i == 0 && cfg.Stamp {
				putStamp(e[resp.at:])
			}
			w.Write(e)
			if f != nil {
				f.Flush()
			}
		}
	}
}

// tokens returns the tokens of the response to a request with body b.
func tokens(cfg Config, b io.Reader) (int, error) {
	if cfg.Tokens > 0 {
		_, err := io.Copy(io.Discard, b)
		return cfg.Tokens, err
	}
	var req struct {
		MaxTokens int `json:"max_tokens"`
	}
	if err := json.NewDecoder(b).Decode(&req); err != nil {
		return 0, err
	}
	if req.MaxTokens <= 0 {
		return DefaultTokens, nil
	}
	return req.MaxTokens, nil
}

// cached returns the prepared response of n tokens, building it once.
func cached(m *sync.Map, sh shape, n int, stamp bool) *response {
	if r, ok := m.Load(n); ok {
		return r.(*response)
	}
	events, at := body(sh, n, stamp)
	r, _ := m.LoadOrStore(n, &response{events: events, whole: bytes.Join(events, nil), at: at})
	return r.(*response)
}

// body returns the n token events, the last chunk and [DONE], one event
// each, and where the first event's stamp goes when stamp is set.
func body(sh shape, n int, stamp bool) ([][]byte, int) {
	at := 0
	events := make([][]byte, 0, n+2)
	for i := range n {
		t := " tok"
		if i == 0 && stamp {
			t = fmt.Sprintf("%0*d", StampWidth, 0)
		}
		e := fmt.Appendf(nil, "data: "+sh.token+"\n\n", t)
		if i == 0 && stamp {
			at = bytes.Index(e, []byte(t))
		}
		events = append(events, e)
	}
	events = append(events, fmt.Appendf(nil, "data: {\"choices\":[%s],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":%d}}\n\n", sh.last, n))
	events = append(events, []byte("data: [DONE]\n\n"))
	return events, at
}

// putStamp writes "t" and the current Unix time in nanoseconds over the
// first StampWidth bytes of b.
func putStamp(b []byte) {
	s := strconv.AppendInt([]byte("t"), time.Now().UnixNano(), 10)
	copy(b[:StampWidth], fmt.Sprintf("%-*s", StampWidth, s))
}
