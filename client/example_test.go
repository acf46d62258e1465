package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"surge/client"
)

func ExampleClient_Do() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, data := range []string{
			`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`,
			`{"choices":[{"index":0,"delta":{"reasoning_content":"Hmm"}}]}`,
			`{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}`,
			`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`,
			`[DONE]`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", data)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()

	c, err := client.New(client.Config{BaseURL: srv.URL, MaxConns: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	res := c.Do(context.Background(), &client.Request{API: "chat", Model: "m", Prompt: "Hello", MaxTokens: 8, Stream: true})
	fmt.Printf("status %d, error class %q\n", res.Status, res.ErrClass)
	fmt.Printf("%d token events, finish %q, usage %d+%d\n", res.Chunks, res.FinishReason, res.PromptTokens, res.CompletionTokens)
	fmt.Println("reasoning before answer:", !res.FirstAnswer.Before(res.FirstToken))
	fmt.Println("TTFT measured from Sent:", res.FirstToken.Sub(res.Sent) > 0)
	// Output:
	// status 200, error class ""
	// 2 token events, finish "stop", usage 3+2
	// reasoning before answer: true
	// TTFT measured from Sent: true
}
