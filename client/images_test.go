package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"surge/openai"
)

// TestImageBodies checks, on the wire, the exact body of a request whose
// messages carry images, for each API that sends them: chat's image_url
// parts, the Responses API's input_image, the Messages API's base64
// source; a message without text has no text part, and history keeps its
// images in place.
func TestImageBodies(t *testing.T) {
	t.Parallel()
	png := openai.Image{MediaType: "image/png", Data: "iVBORw0KGgo="}
	jpg := openai.Image{MediaType: "image/jpeg", Data: "/9j/4AAQ"}
	msgs := []openai.Message{
		{Role: "system", Content: "Be brief."},
		{Role: "user", Content: "What is this?", Images: []openai.Image{png, jpg}},
		{Role: "assistant", Content: "Squares."},
		{Role: "user", Images: []openai.Image{png}},
	}
	tests := []struct {
		api, want string
	}{
		{"chat", `{"model":"m","messages":[{"role":"system","content":"Be brief."},` +
			`{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}},{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/4AAQ"}}]},` +
			`{"role":"assistant","content":"Squares."},` +
			`{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}],"max_tokens":8}`},
		{"responses", `{"model":"m","input":[{"role":"system","content":"Be brief."},` +
			`{"role":"user","content":[{"type":"input_text","text":"What is this?"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="},{"type":"input_image","image_url":"data:image/jpeg;base64,/9j/4AAQ"}]},` +
			`{"role":"assistant","content":"Squares."},` +
			`{"role":"user","content":[{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="}]}],"max_output_tokens":8,"store":false}`},
		{"messages", `{"model":"m","system":"Be brief.","messages":[` +
			`{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"/9j/4AAQ"}}]},` +
			`{"role":"assistant","content":"Squares."},` +
			`{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}],"max_tokens":8}`},
	}
	for _, tt := range tests {
		var raw []byte
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) {
			raw, _ = io.ReadAll(r.Body)
			http.Error(w, "captured", http.StatusTeapot)
		})
		c.Do(context.Background(), &Request{API: tt.api, Model: "m", MaxTokens: 8, Messages: msgs})
		if string(raw) != tt.want {
			t.Errorf("%s: body\n%s\nwant\n%s", tt.api, raw, tt.want)
		}
		if !json.Valid(raw) {
			t.Errorf("%s: the body is not JSON", tt.api)
		}
	}
}

// TestImagesRefused checks a completions or embeddings request with
// images in its messages is refused unsent.
func TestImagesRefused(t *testing.T) {
	t.Parallel()
	for _, api := range []string{"completions", "embeddings"} {
		sent := false
		c, _ := serve(t, Config{}, func(w http.ResponseWriter, r *http.Request) { sent = true })
		res := c.Do(context.Background(), &Request{API: api, Model: "m", MaxTokens: 8,
			Messages: []openai.Message{{Role: "user", Content: "x", Images: []openai.Image{{MediaType: "image/png", Data: "AA=="}}}}})
		if sent || res.Cause != CauseInvalid {
			t.Errorf("%s: sent %t, cause %q", api, sent, res.Cause)
		}
	}
}
