package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// streamChoices reads a chat or completions stream: the text and the
// token chunks of each choice, by index, and the usage's completion
// tokens.
func streamChoices(t *testing.T, body []byte) (texts []string, chunks []int, usage int) {
	t.Helper()
	for _, raw := range parseStream(t, body).raw {
		var c struct {
			Choices []struct {
				Index int     `json:"index"`
				Text  *string `json:"text"`
				Delta *struct {
					Content string `json:"content"`
				} `json:"delta"`
				Logprobs json.RawMessage `json:"logprobs"`
			} `json:"choices"`
			Usage *struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if c.Usage != nil {
			usage = c.Usage.CompletionTokens
		}
		for _, ch := range c.Choices {
			for len(texts) <= ch.Index {
				texts, chunks = append(texts, ""), append(chunks, 0)
			}
			s := ""
			if ch.Text != nil {
				s = *ch.Text
			} else if ch.Delta != nil {
				s = ch.Delta.Content
			}
			if s != "" {
				texts[ch.Index] += s
				chunks[ch.Index]++
			}
		}
	}
	return texts, chunks, usage
}

// TestChoices checks that n choices stream each with its index, every
// one of the planned length, counted together in the usage, in chat and
// completions, streamed and whole; and that the engine prefills the
// prompt once for them all.
func TestChoices(t *testing.T) {
	t.Parallel()
	prompt := strings.Repeat("alpha beta gamma delta ", 40) // 160 tokens: 10 full blocks of 16
	for _, api := range []string{"chat", "completions"} {
		cost := &prefillCost{step: time.Millisecond}
		_, ts := newTestServer(t, Config{Coster: cost})
		body := map[string]any{"model": testModel, "max_tokens": 12, "ignore_eos": true, "n": 3, "stream": true,
			"stream_options": map[string]bool{"include_usage": true}}
		path := "/v1/chat/completions"
		if api == "chat" {
			body["messages"] = []map[string]string{{"role": "user", "content": prompt}}
		} else {
			body["prompt"], path = prompt, "/v1/completions"
		}
		status, out := post(t, ts, path, body)
		if status != 200 {
			t.Fatalf("%s: status %d: %s", api, status, out)
		}
		texts, chunks, usage := streamChoices(t, out)
		if len(texts) != 3 || chunks[0] != 12 || chunks[1] != 12 || chunks[2] != 12 || usage != 36 {
			t.Errorf("%s: %d choices, chunks %v, usage %d; want 3 of 12, 36", api, len(texts), chunks, usage)
		}
		// 160 prompt tokens, then each other choice recomputes only the
		// last token it cannot take from the cache.
		if got := cost.prefill.Load(); got >= 2*160 {
			t.Errorf("%s: %d prefill tokens for 3 choices of a 160-token prompt: want one prefill shared", api, got)
		}
		body["stream"] = false
		delete(body, "stream_options")
		status, out = post(t, ts, path, body)
		var whole struct {
			Choices []struct {
				Index int `json:"index"`
			} `json:"choices"`
			Usage struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(out, &whole); status != 200 || err != nil || len(whole.Choices) != 3 || whole.Choices[2].Index != 2 || whole.Usage.CompletionTokens != 36 {
			t.Errorf("%s whole: status %d %v: %s", api, status, err, out)
		}
	}
}

// TestJSONAnswer checks that an answer asked for as JSON is a JSON
// object whose members are the schema's properties, of as many tokens
// as planned, in every API.
func TestJSONAnswer(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	schema := map[string]any{"type": "object", "properties": map[string]any{"b": map[string]string{"type": "string"}, "a": map[string]string{"type": "string"}}}
	msgs := []map[string]string{{"role": "user", "content": "hi"}}
	for _, tt := range []struct {
		name, path string
		body       map[string]any
		keys       string
	}{
		{"chat json_schema", "/v1/chat/completions", map[string]any{"messages": msgs, "max_tokens": 9,
			"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "x", "schema": schema}}}, "a,b"},
		{"chat json_object", "/v1/chat/completions", map[string]any{"messages": msgs, "max_tokens": 1,
			"response_format": map[string]any{"type": "json_object"}}, "text"},
		{"completions", "/v1/completions", map[string]any{"prompt": "hi", "max_tokens": 5,
			"response_format": map[string]any{"type": "json_object"}}, "text"},
		{"responses", "/v1/responses", map[string]any{"input": "hi", "max_output_tokens": 7,
			"text": map[string]any{"format": map[string]any{"type": "json_schema", "name": "x", "schema": schema}}}, "a,b"},
		{"messages", "/v1/messages", map[string]any{"messages": msgs, "max_tokens": 4,
			"output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": schema}}}, "a,b"},
	} {
		tt.body["model"], tt.body["ignore_eos"] = testModel, true
		status, out := post(t, ts, tt.path, tt.body)
		if status != 200 {
			t.Fatalf("%s: status %d: %s", tt.name, status, out)
		}
		text := answerText(t, tt.path, out)
		var obj map[string]string
		if err := json.Unmarshal([]byte(text), &obj); err != nil {
			t.Errorf("%s: answer %q is not a JSON object of strings: %v", tt.name, text, err)
			continue
		}
		var keys []string
		for _, k := range []string{"a", "b", "text"} {
			if _, ok := obj[k]; ok {
				keys = append(keys, k)
			}
		}
		if strings.Join(keys, ",") != tt.keys || len(obj) != len(keys) {
			t.Errorf("%s: answer %s, want members %s", tt.name, text, tt.keys)
		}
	}
}

// answerText is the answer of a whole response of the API at path.
func answerText(t *testing.T, path string, out []byte) string {
	t.Helper()
	var r struct {
		Choices []struct {
			Text    string `json:"text"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Output []struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"output"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	switch path {
	case "/v1/responses":
		return r.Output[0].Content[0].Text
	case "/v1/messages":
		return r.Content[0].Text
	case "/v1/completions":
		return r.Choices[0].Text
	}
	return r.Choices[0].Message.Content
}

// TestStopAndLogprobs checks that a stop string in the answer cuts it
// before the token completing it, with finish_reason stop, and that
// logprobs come per token in each API's shape.
func TestStopAndLogprobs(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	msgs := []map[string]string{{"role": "user", "content": "hi"}}
	status, out := post(t, ts, "/v1/chat/completions", map[string]any{"model": testModel, "messages": msgs, "max_tokens": 30,
		"ignore_eos": true, "stop": []string{" data"}})
	var r struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(out, &r); status != 200 || err != nil {
		t.Fatalf("status %d %v: %s", status, err, out)
	}
	// " data" is word 17: the answer is words 0 to 16.
	if c := r.Choices[0]; c.FinishReason != "stop" || r.Usage.CompletionTokens != 17 || strings.Contains(c.Message.Content, "data") {
		t.Errorf("stop: finish %s, %d tokens, answer %q; want stop, 17, without the stop string", c.FinishReason, r.Usage.CompletionTokens, c.Message.Content)
	}
	status, out = post(t, ts, "/v1/chat/completions", map[string]any{"model": testModel, "messages": msgs, "max_tokens": 3,
		"ignore_eos": true, "logprobs": true, "top_logprobs": 2, "stream": true})
	lp := 0
	for _, raw := range parseStream(t, out).raw {
		var c struct {
			Choices []struct {
				Logprobs *struct {
					Content []struct {
						Token       string  `json:"token"`
						Logprob     float64 `json:"logprob"`
						Bytes       []int   `json:"bytes"`
						TopLogprobs []struct {
							Token string `json:"token"`
						} `json:"top_logprobs"`
					} `json:"content"`
				} `json:"logprobs"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if l := c.Choices[0].Logprobs; l != nil {
			if len(l.Content) != 1 || len(l.Content[0].TopLogprobs) != 2 || l.Content[0].Logprob >= 0 || len(l.Content[0].Bytes) != len(l.Content[0].Token) {
				t.Errorf("chat logprobs %s", raw)
			}
			lp++
		}
	}
	if status != 200 || lp != 3 {
		t.Errorf("chat stream: status %d, %d tokens with logprobs, want 3", status, lp)
	}
	status, out = post(t, ts, "/v1/completions", map[string]any{"model": testModel, "prompt": "hi", "max_tokens": 2,
		"ignore_eos": true, "logprobs": 1})
	var c struct {
		Choices []struct {
			Logprobs struct {
				Tokens        []string             `json:"tokens"`
				TokenLogprobs []float64            `json:"token_logprobs"`
				TopLogprobs   []map[string]float64 `json:"top_logprobs"`
				TextOffset    []int                `json:"text_offset"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(out, &c); status != 200 || err != nil {
		t.Fatalf("completions: status %d %v: %s", status, err, out)
	}
	if l := c.Choices[0].Logprobs; len(l.Tokens) != 2 || len(l.TokenLogprobs) != 2 || len(l.TopLogprobs) != 2 || l.TextOffset[1] != len(l.Tokens[0]) {
		t.Errorf("completions logprobs %+v", l)
	}
}

// TestOptionsRefused checks the server's 400s for options out of bounds.
func TestOptionsRefused(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	msgs := []map[string]string{{"role": "user", "content": "hi"}}
	for _, extra := range []map[string]any{
		{"n": 0}, {"n": 129}, {"logprobs": true, "top_logprobs": 21}, {"response_format": map[string]any{"type": "yaml"}},
		{"stop": 3}, {"response_format": map[string]any{"type": "json_schema"}},
	} {
		body := map[string]any{"model": testModel, "messages": msgs, "max_tokens": 2}
		for k, v := range extra {
			body[k] = v
		}
		if status, out := post(t, ts, "/v1/chat/completions", body); status != 400 {
			t.Errorf("%v: status %d: %s; want 400", extra, status, out)
		}
	}
}

// TestMessagesStopSequence checks that a stop sequence ends a Messages
// answer with stop_reason stop_sequence, naming it, streamed and whole.
func TestMessagesStopSequence(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	for _, stream := range []bool{false, true} {
		status, out := post(t, ts, "/v1/messages", map[string]any{"model": testModel, "max_tokens": 30, "ignore_eos": true, "stream": stream,
			"messages": []map[string]string{{"role": "user", "content": "hi"}}, "stop_sequences": []string{" data"}})
		if status != 200 || !strings.Contains(string(out), `"stop_reason":"stop_sequence","stop_sequence":" data"`) {
			t.Errorf("stream %v: status %d: %s", stream, status, out)
		}
	}
}

// TestResponsesLogprobs checks that a Responses stream asked for
// logprobs (include message.output_text.logprobs) carries them on every
// output_text.delta, with top_logprobs alternatives.
func TestResponsesLogprobs(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	status, out := post(t, ts, "/v1/responses", map[string]any{"model": testModel, "input": "hi", "max_output_tokens": 3,
		"ignore_eos": true, "stream": true, "top_logprobs": 2, "include": []string{"message.output_text.logprobs"}})
	n := 0
	for _, raw := range parseStream(t, out).raw {
		var ev struct {
			Type     string `json:"type"`
			Logprobs []struct {
				Token       string            `json:"token"`
				Logprob     float64           `json:"logprob"`
				TopLogprobs []json.RawMessage `json:"top_logprobs"`
			} `json:"logprobs"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type == "response.output_text.delta" {
			if len(ev.Logprobs) != 1 || len(ev.Logprobs[0].TopLogprobs) != 2 || ev.Logprobs[0].Logprob >= 0 {
				t.Errorf("delta without its logprobs: %s", raw)
			}
			n++
		}
	}
	if status != 200 || n != 3 {
		t.Errorf("status %d, %d deltas; want 3", status, n)
	}
}

// TestChoicesAborted checks that a request for several choices stays
// live under its id until its last choice finishes, so that a client
// going away after choice 0 finished aborts the others too.
func TestChoicesAborted(t *testing.T) {
	t.Parallel()
	s, err := New(Config{Model: testModel, Coster: &prefillCost{step: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	st := newStream(1, job{promptLen: 4, outputLen: 8, answer: answer{choices: 3}}, time.Now())
	st.kids = []uint64{2, 3}
	live := map[uint64]*stream{1: st, 2: st, 3: st}
	s.finishChoice(live, st, 1, time.Now()) // choice 0 done, 1 and 2 generating
	if live[1] != st || len(live) != 3 {
		t.Fatalf("after choice 0 finished: live %v; want the request still live under its id", live)
	}
	s.aborts = []uint64{1}
	s.takeInbox(live)
	if len(live) != 0 {
		t.Errorf("after the abort: live %v; want every choice gone", live)
	}
	if st.snapshot().done {
		t.Error("an aborted request was marked done")
	}
}
