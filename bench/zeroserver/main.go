// Command zeroserver is a zero-delay OpenAI-compatible streaming server for
// measuring surge's own overhead: it answers every chat or completions
// request at once with max_tokens (default 64) one-token events written in
// a single write, then a usage chunk and [DONE].
//
//	go run ./bench/zeroserver -addr 127.0.0.1:18000
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18000", "address to listen on (loopback only)")
	flag.Parse()
	http.HandleFunc("/v1/chat/completions", handle(`{"choices":[{"index":0,"delta":{"content":" tok"}}]}`))
	http.HandleFunc("/v1/completions", handle(`{"choices":[{"index":0,"text":" tok"}]}`))
	log.Fatal(http.ListenAndServe(*addr, nil))
}

func handle(chunk string) http.HandlerFunc {
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
		var b bytes.Buffer
		for range n {
			fmt.Fprintf(&b, "data: %s\n\n", chunk)
		}
		fmt.Fprintf(&b, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":%d}}\n\ndata: [DONE]\n\n", n)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(b.Bytes())
	}
}
