package server

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"surge/client"
	"surge/content/vision"
	"surge/openai"
)

// TestImagePrompts sends each API a prompt with and without images,
// through surge's client: the images' tokens, by the served model's rule,
// are in the usage's prompt tokens and in what the engine prefills.
func TestImagePrompts(t *testing.T) {
	t.Parallel()
	cost := &prefillCost{step: time.Millisecond}
	const model = "Qwen2.5-VL-7B"
	_, ts := newTestServer(t, Config{Coster: cost, Model: model})
	c, err := client.New(client.Config{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	img := func(w, h int, seed uint64, format string) openai.Image {
		raw, err := vision.Encode(w, h, seed, format)
		if err != nil {
			t.Fatal(err)
		}
		return openai.Image{MediaType: vision.MediaType(format), Data: base64.StdEncoding.EncodeToString(raw)}
	}
	want := vision.Tokens(model, 1280, 720) + vision.Tokens(model, 64, 64)
	for a, api := range []string{openai.APIChat, openai.APIResponses, openai.APIMessages} {
		// Images of their own, which no earlier request left in the
		// prefix cache.
		images := []openai.Image{img(1280, 720, uint64(a), vision.PNG), img(64, 64, uint64(a), vision.JPEG)}
		var prompts, prefills [2]int
		for i, with := range []bool{false, true} {
			msg := openai.Message{Role: "user", Content: "what is in these"}
			if with {
				msg.Images = images
			}
			before := cost.prefill.Load()
			res := c.Do(context.Background(), &client.Request{API: api, Model: model, MaxTokens: 2, Messages: []openai.Message{msg}})
			if res.ErrClass != "" {
				t.Fatalf("%s, images %t: %s %s", api, with, res.ErrClass, res.Err)
			}
			prompts[i], prefills[i] = res.PromptTokens, int(cost.prefill.Load()-before)
		}
		if got := prompts[1] - prompts[0]; got != want {
			t.Errorf("%s: the images added %d prompt tokens, want %d", api, got, want)
		}
		if prefills[1] < want {
			t.Errorf("%s: the engine prefilled %d tokens with the images, fewer than their %d", api, prefills[1], want)
		}
	}
}

// TestImagePartsRefused checks image parts the engine cannot cost get a
// 400 naming what is wrong.
func TestImagePartsRefused(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	png := "data:image/png;base64," + base64.StdEncoding.EncodeToString(must(vision.Encode(16, 16, 1, vision.PNG)))
	tests := []struct{ path, body, want string }{
		{openai.ChatPath, `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://x/a.png"}}]}]}`, "only data URLs"},
		{openai.ChatPath, `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":"` + png + `"}]}]}`, `needs {\"url\"`},
		{openai.ChatPath, `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}]}`, "reading the image's size"},
		{openai.ResponsesPath, `{"model":"m","input":[{"role":"user","content":[{"type":"input_image","image_url":{"url":"` + png + `"}}]}]}`, "a data URL string"},
		{openai.MessagesPath, `{"model":"m","max_tokens":2,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://x"}}]}]}`, "an image's source must be"},
		{openai.MessagesPath, `{"model":"m","max_tokens":2,"system":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"x"}}],"messages":[{"role":"user","content":"x"}]}`, "system: content part type"},
	}
	for _, tt := range tests {
		status, body := post(t, ts, tt.path, tt.body)
		if status != http.StatusBadRequest || !strings.Contains(string(body), tt.want) {
			t.Errorf("%s %.60s: %d %s, want 400 with %q", tt.path, tt.body, status, body, tt.want)
		}
	}
}

// must returns v, for a call that cannot fail in a test.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
