package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
)

// fakeServer streams OpenAI-style chat chunks: a role delta, then tokens
// after ttft and every itl, then a usage chunk and [DONE].
type fakeServer struct {
	ttft, itl time.Duration
	tokens    int
	usageOff  int // added to the completion_tokens the server reports
	failEvery int // answer every failEvery-th request with HTTP 500
	count     *atomic.Int64
}

func (s fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		MaxTokens int  `json:"max_tokens"`
		Stream    bool `json:"stream"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	if s.failEvery > 0 && s.count.Add(1)%int64(s.failEvery) == 0 {
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
		return
	}
	n := s.tokens
	if req.MaxTokens > 0 {
		n = min(n, req.MaxTokens)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flush := func(line string) {
		fmt.Fprintf(w, "data: %s\n\n", line)
		w.(http.Flusher).Flush()
	}
	flush(`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`)
	select {
	case <-time.After(s.ttft):
	case <-r.Context().Done():
		return
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			select {
			case <-time.After(s.itl):
			case <-r.Context().Done():
				return
			}
		}
		finish := "null"
		if i == n-1 {
			finish = `"length"`
		}
		flush(fmt.Sprintf(`{"choices":[{"index":0,"delta":{"content":" tok"},"finish_reason":%s}]}`, finish))
	}
	flush(fmt.Sprintf(`{"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d}}`, 10, n+s.usageOff))
	flush("[DONE]")
}
