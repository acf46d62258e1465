package selftest

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestListeningOn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		out, want string
		ok        bool
	}{
		{"starting\nlistening on http://127.0.0.1:5 (Ctrl-C to stop)\nmore\n", "http://127.0.0.1:5", true},
		{"listening on \nbye\n", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := ListeningOn(t.Context(), strings.NewReader(tt.out))
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("%q: %q, %v; want %q, ok %v", tt.out, got, err, tt.want, tt.ok)
		}
	}
}

// TestServeProcess serves as the server process would, finds its URL as
// StartProcess does, streams one response, and stops when stdin ends.
func TestServeProcess(t *testing.T) {
	t.Parallel()
	stdinR, stdinW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeProcess(context.Background(), outW, stdinR) }()
	url, err := ListeningOn(t.Context(), outR)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "[DONE]") {
		t.Errorf("HTTP %d: %.200s", resp.StatusCode, body)
	}
	stdinW.Close()
	if err := <-done; err != nil {
		t.Errorf("after stdin closed: %v", err)
	}
}
