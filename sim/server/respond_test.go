package server

import (
	"strings"
	"testing"

	"surge/content"
	"surge/openai"
)

func TestStreamShapes(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Config{})
	prompt := "Tell me about the history of the printing press in Europe."
	wantPrompt := len(s.tok.Encode(prompt))
	for _, tc := range []struct {
		name, path string
		body       map[string]any
		roleFirst  bool // chat streams open with a role-only delta
	}{
		{"chat sends role, content deltas, usage, DONE", openai.ChatPath, chatBody(prompt, 7, true), true},
		{"completions sends text chunks, usage, DONE", openai.CompletionsPath, map[string]any{
			"model": testModel, "prompt": prompt, "max_tokens": 7, "ignore_eos": true, "stream": true,
			"stream_options": map[string]bool{"include_usage": true}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.body["ignore_eos"] = true
			code, body := post(t, ts, tc.path, tc.body)
			if code != 200 {
				t.Fatalf("status %d: %s", code, body)
			}
			res := parseStream(t, body)
			if !res.done {
				t.Fatal("no [DONE]")
			}
			if tc.roleFirst && (res.infos[0].Token() || !strings.Contains(string(res.raw[0]), `"role":"assistant"`)) {
				t.Errorf("first event %s, want a role-only delta", res.raw[0])
			}
			if res.tokens != 7 || res.finish != "length" {
				t.Errorf("%d token events, finish %q; want 7, length", res.tokens, res.finish)
			}
			u := res.usage.Usage
			if u.PromptTokens != wantPrompt || u.CompletionTokens != 7 || u.TotalTokens != wantPrompt+7 {
				t.Errorf("usage %+v, want prompt %d completion 7", u, wantPrompt)
			}
			if res.timings.TTFTMS <= 0 || res.timings.E2EMS < res.timings.TTFTMS {
				t.Errorf("surge_timings %+v, want 0 < ttft ≤ e2e", res.timings)
			}
			if last := res.infos[len(res.infos)-1]; !last.HasUsage || last.Token() {
				t.Errorf("last event before [DONE] is %s, want the usage chunk", res.raw[len(res.raw)-1])
			}
		})
	}
}

func TestWholeResponses(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Config{})
	for _, tc := range []struct {
		name, path string
		body       map[string]any
		finish     string
	}{
		{"chat, ignore_eos runs to max_tokens", openai.ChatPath, map[string]any{"model": testModel,
			"messages": []map[string]string{{"role": "user", "content": "hello there"}}, "max_tokens": 12, "ignore_eos": true}, "length"},
		{"completions with min_tokens = max_tokens", openai.CompletionsPath, map[string]any{"model": testModel,
			"prompt": "hello there", "max_tokens": 9, "min_tokens": 9}, "length"},
		{"chat with natural length below a high cap stops", openai.ChatPath, map[string]any{"model": testModel,
			"messages": []map[string]string{{"role": "user", "content": "a short question"}}, "max_tokens": 100000}, "stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, body := post(t, ts, tc.path, tc.body)
			if code != 200 {
				t.Fatalf("status %d: %s", code, body)
			}
			in, err := openai.Decode(body)
			if err != nil {
				t.Fatal(err)
			}
			if !in.Answer || !in.HasUsage || in.FinishReason != tc.finish {
				t.Fatalf("decoded %+v from %s, want an answer, usage and finish %q", in, body, tc.finish)
			}
			// The text must tokenize back to the reported completion tokens.
			text := textOf(t, body)
			if n := len(s.tok.Encode(text)); n != in.Usage.CompletionTokens {
				t.Errorf("text has %d tokens, usage says %d", n, in.Usage.CompletionTokens)
			}
		})
	}
}

// textOf extracts the generated text of a whole response.
func textOf(t *testing.T, body []byte) string {
	t.Helper()
	var r struct {
		Choices []struct {
			Text    string `json:"text"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := jsonUnmarshal(body, &r); err != nil || len(r.Choices) != 1 {
		t.Fatalf("response %s: %v", body, err)
	}
	return r.Choices[0].Text + r.Choices[0].Message.Content
}

func TestWordsAreSingleTokens(t *testing.T) {
	t.Parallel()
	tok, err := content.Builtin("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for i, w := range words {
		if n := len(tok.Encode(w)); n != 1 {
			t.Errorf("word %d %q is %d tokens, want 1", i, w, n)
		}
		all.WriteString(w)
	}
	// A run of words must not merge: two passes over the list, 64 tokens.
	run := all.String() + all.String()
	if n := len(tok.Encode(run)); n != 2*len(words) {
		t.Errorf("%d words tokenize to %d tokens", 2*len(words), n)
	}
}
