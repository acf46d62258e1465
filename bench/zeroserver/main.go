// Command zeroserver is a zero-delay OpenAI-compatible streaming server for
// measuring surge's own overhead: it answers every chat or completions
// request at once with max_tokens (default 64) one-token events, then a
// last chunk with the usage and [DONE]. It serves internal/zeroserver,
// the server of surge selftest.
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
	"flag"
	"log"
	"net/http"

	"surge/internal/zeroserver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18000", "address to listen on (loopback only)")
	flush := flag.String("flush", "once", "once: the whole response in one write; each: write and flush every event")
	var cfg zeroserver.Config
	flag.DurationVar(&cfg.ITL, "itl", 0, "wait this long between tokens (implies -flush each)")
	flag.BoolVar(&cfg.Stamp, "stamp", false, "first token's text is t<unix ns of its write>")
	flag.Parse()
	switch *flush {
	case "once":
	case "each":
		cfg.Each = true
	default:
		log.Fatalf("-flush %q: want once or each", *flush)
	}
	log.Fatal(http.ListenAndServe(*addr, zeroserver.Handler(cfg)))
}
