// Command zeroserver is a zero-delay OpenAI-compatible streaming server for
// measuring surge's own overhead: it answers every chat or completions
// request at once with max_tokens (default 64) one-token events, then a
// usage chunk and [DONE].
//
//	go run ./bench/zeroserver -addr 127.0.0.1:18000
//
// By default the whole response goes out in a single write (the client's
// ceiling). -flush each writes and flushes every event on its own, as a real
// server does; -itl D also waits D between tokens (long streams, for memory
// measurements). -stamp puts the server's own clock reading into the first
// token: its text is "t" and the Unix time in nanoseconds taken just before
// the write that carries it, so that a client on the same machine can
// subtract it from the time it saw that token (bench/overhead).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// config is how the server answers.
type config struct {
	each  bool          // write and flush every event on its own
	itl   time.Duration // wait between tokens (implies each)
	stamp bool          // first token carries the write time
}

func main() {
	addr := flag.String("addr", "127.0.0.1:18000", "address to listen on (loopback only)")
	flush := flag.String("flush", "once", "once: the whole response in one write; each: write and flush every event")
	var cfg config
	flag.DurationVar(&cfg.itl, "itl", 0, "wait this long between tokens (implies -flush each)")
	flag.BoolVar(&cfg.stamp, "stamp", false, "first token's text is t<unix ns of its write>")
	flag.Parse()
	switch *flush {
	case "once":
	case "each":
		cfg.each = true
	default:
		log.Fatalf("-flush %q: want once or each", *flush)
	}
	cfg.each = cfg.each || cfg.itl > 0
	http.HandleFunc("/v1/chat/completions", handle(cfg, `{"choices":[{"index":0,"delta":{"content":"%s"}}]}`))
	http.HandleFunc("/v1/completions", handle(cfg, `{"choices":[{"index":0,"text":"%s"}]}`))
	log.Fatal(http.ListenAndServe(*addr, nil))
}

// stampWidth is the width of a stamp: "t" and 19 digits of Unix nanoseconds.
const stampWidth = 20

// response is a prepared answer of n tokens: its events, the whole of
// them, and where the first event's stamp goes.
type response struct {
	events [][]byte
	whole  []byte
	at     int
}

// cached returns the prepared response of n tokens, building it once.
func cached(m *sync.Map, chunk string, n int, stamp bool) *response {
	if r, ok := m.Load(n); ok {
		return r.(*response)
	}
	events, at := body(chunk, n, stamp)
	r, _ := m.LoadOrStore(n, &response{events: events, whole: bytes.Join(events, nil), at: at})
	return r.(*response)
}

func handle(cfg config, chunk string) http.HandlerFunc {
	var bodies sync.Map // max_tokens → *response
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			MaxTokens int `json:"max_tokens"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad request body"}}`, http.StatusBadRequest)
			return
		}
		n := req.MaxTokens
		if n <= 0 {
			n = 64
		}
		resp := cached(&bodies, chunk, n, cfg.stamp)
		w.Header().Set("Content-Type", "text/event-stream")
		if !cfg.each {
			whole := resp.whole
			if cfg.stamp {
				whole = bytes.Clone(whole)
				putStamp(whole[resp.at:])
			}
			w.Write(whole)
			return
		}
		events := resp.events
		if cfg.stamp {
			events = slices.Clone(events)
			events[0] = bytes.Clone(events[0])
		}
		f := w.(http.Flusher)
		for i, e := range events {
			if i > 0 && i < n && cfg.itl > 0 {
				time.Sleep(cfg.itl)
			}
			if i == 0 && cfg.stamp {
				putStamp(e[resp.at:])
			}
			w.Write(e)
			f.Flush()
		}
	}
}

// body returns the n token events, the usage chunk and [DONE], one event
// each, and where the first event's stamp goes when stamp is set.
func body(chunk string, n int, stamp bool) ([][]byte, int) {
	text, at := " tok", 0
	events := make([][]byte, 0, n+2)
	for i := range n {
		t := text
		if i == 0 && stamp {
			t = fmt.Sprintf("%0*d", stampWidth, 0)
		}
		e := fmt.Appendf(nil, "data: "+chunk+"\n\n", t)
		if i == 0 && stamp {
			at = bytes.Index(e, []byte(t))
		}
		events = append(events, e)
	}
	events = append(events, fmt.Appendf(nil, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":%d}}\n\n", n))
	events = append(events, []byte("data: [DONE]\n\n"))
	return events, at
}

// putStamp writes "t" and the current Unix time in nanoseconds over the
// first stampWidth bytes of b.
func putStamp(b []byte) {
	s := strconv.AppendInt([]byte("t"), time.Now().UnixNano(), 10)
	copy(b[:stampWidth], fmt.Sprintf("%-*s", stampWidth, s))
}
