package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"surge/openai"
)

// TestReasoning checks surge_reasoning_tokens: the first that many output
// tokens stream as reasoning_content and the rest as content; a whole
// response holds them in message.reasoning_content and message.content;
// the cap counts both; a negative count is a 400.
func TestReasoning(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	body := chatBody("why", 5, true)
	body["ignore_eos"], body["surge_reasoning_tokens"] = true, 3
	code, out := post(t, ts, "/v1/chat/completions", body)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, out)
	}
	res := parseStream(t, out)
	var kinds []string
	for _, in := range res.infos {
		switch {
		case in.Reasoning:
			kinds = append(kinds, "r")
		case in.Answer:
			kinds = append(kinds, "a")
		}
	}
	if got := strings.Join(kinds, ""); got != "rrraa" {
		t.Errorf("streamed tokens %q, want rrraa: 3 reasoning then 2 answer", got)
	}

	body = chatBody("why", 5, false)
	body["ignore_eos"], body["surge_reasoning_tokens"] = true, 9
	code, out = post(t, ts, "/v1/chat/completions", body)
	var whole struct {
		Choices []struct {
			Message struct {
				Reasoning string `json:"reasoning_content"`
				Content   string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage openai.UsageDetails `json:"usage"`
	}
	if err := json.Unmarshal(out, &whole); err != nil || code != http.StatusOK {
		t.Fatalf("status %d, %v: %s", code, err, out)
	}
	m := whole.Choices[0].Message
	if m.Reasoning == "" || m.Content != "" || whole.Usage.CompletionTokens != 5 {
		t.Errorf("reasoning beyond the cap: message %+v, %d tokens; want all 5 tokens reasoning", m, whole.Usage.CompletionTokens)
	}

	body["surge_reasoning_tokens"] = -1
	if code, out := post(t, ts, "/v1/chat/completions", body); code != http.StatusBadRequest || !strings.Contains(string(out), "surge_reasoning_tokens must be at least 0") {
		t.Errorf("negative reasoning: status %d: %s", code, out)
	}
}
