package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"surge/openai"
	"surge/sim"
)

func TestErrorResponses(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{MaxBodyBytes: 8192, Engine: engineSmall()})
	for _, tc := range []struct {
		name, path, body string
		code             int
		msg              string // a part of the message
	}{
		{"malformed JSON is a 400 naming the problem", openai.ChatPath, `{"model":`, 400, "invalid JSON"},
		{"trailing data after the object", openai.ChatPath, `{"model":"test-model"} {}`, 400, "after the top-level"},
		{"missing model", openai.ChatPath, `{"messages":[{"role":"user","content":"hi"}]}`, 400, "model is required"},
		{"missing messages", openai.ChatPath, `{"model":"test-model"}`, 400, "messages is required"},
		{"missing prompt", openai.CompletionsPath, `{"model":"test-model"}`, 400, "prompt is required"},
		{"negative max_tokens", openai.ChatPath, `{"model":"test-model","messages":[{"role":"user","content":"hi"}],"max_tokens":-1}`, 400, "max_tokens"},
		{"min_tokens above max_tokens", openai.CompletionsPath, `{"model":"test-model","prompt":"hi","max_tokens":2,"min_tokens":3}`, 400, "min_tokens"},
		{"batched prompts", openai.CompletionsPath, `{"model":"test-model","prompt":["a","b"]}`, 400, "batches"},
		{"image part without its url", openai.ChatPath, `{"model":"test-model","messages":[{"role":"user","content":[{"type":"image_url"}]}]}`, 400, "image_url needs"},
		{"unknown model is a 404 like vLLM", openai.ChatPath, `{"model":"gpt-9","messages":[{"role":"user","content":"hi"}]}`, 404, "The model `gpt-9` does not exist."},
		{"body over the limit is a 413", openai.CompletionsPath, `{"model":"test-model","prompt":"` + strings.Repeat("x", 9000) + `"}`, 413, "larger than 8192"},
		{"prompt over the context is vLLM's 400", openai.CompletionsPath, `{"model":"test-model","prompt":[` + strings.Repeat("1,", 2999) + `1],"max_tokens":10}`, 400, "maximum context length is 2048 tokens"},
		{"prompt + max_tokens over the context", openai.CompletionsPath, `{"model":"test-model","prompt":"hi","max_tokens":4000}`, 400, "(1 in the messages, 4000 in the completion)"},
		{"responses without input", openai.ResponsesPath, `{"model":"test-model"}`, 400, "input is required"},
		{"responses item of another type", openai.ResponsesPath, `{"model":"test-model","input":[{"type":"web_search_call","id":"x"}]}`, 400, `input[0].type "web_search_call" is not supported`},
		{"responses call output without its call", openai.ResponsesPath, `{"model":"test-model","input":[{"type":"function_call_output","output":"x"}]}`, 400, `input[0].call_id is required`},
		{"responses tool without a name", openai.ResponsesPath, `{"model":"test-model","input":"x","tools":[{"type":"function","function":{"name":"f"}}]}`, 400, `tools[0].name is required`},
		{"messages tool_use without its id", openai.MessagesPath, `{"model":"test-model","max_tokens":4,"messages":[{"role":"assistant","content":[{"type":"tool_use","name":"f","input":{}}]}]}`, 400, `messages[0].content: [0]: a tool_use block needs its id and name`},
		{"messages tool_result without its call", openai.MessagesPath, `{"model":"test-model","max_tokens":4,"messages":[{"role":"user","content":[{"type":"tool_result","content":"r"}]}]}`, 400, `messages[0].content: [0].tool_use_id is required`},
		{"chat tool_calls of another shape", openai.ChatPath, `{"model":"test-model","messages":[{"role":"assistant","content":null,"tool_calls":{"id":"c"}}]}`, 400, `messages[0].tool_calls: must be an array`},
		{"responses max_output_tokens of 0", openai.ResponsesPath, `{"model":"test-model","input":"x","max_output_tokens":0}`, 400, "max_output_tokens must be at least 1"},
		{"messages without max_tokens", openai.MessagesPath, `{"model":"test-model","messages":[{"role":"user","content":"hi"}]}`, 400, "max_tokens: Field required"},
		{"messages with a system role", openai.MessagesPath, `{"model":"test-model","max_tokens":4,"messages":[{"role":"system","content":"hi"}]}`, 400, "'user' or 'assistant'"},
		{"messages image block without its source", openai.MessagesPath, `{"model":"test-model","max_tokens":4,"messages":[{"role":"user","content":[{"type":"image"}]}]}`, 400, "source must be"},
		{"embeddings without input", openai.EmbeddingsPath, `{"model":"test-model","input":[]}`, 400, "must not be empty"},
		{"embeddings of numbers and strings", openai.EmbeddingsPath, `{"model":"test-model","input":["a",1]}`, 400, "input must be"},
		{"embeddings format", openai.EmbeddingsPath, `{"model":"test-model","input":"a","encoding_format":"hex"}`, 400, "encoding_format"},
		{"rerank without a query", openai.RerankPath, `{"model":"test-model","documents":["a"]}`, 400, "query is required"},
		{"rerank without documents", "/rerank", `{"model":"test-model","query":"q","documents":[]}`, 400, "documents must not be empty"},
		{"rerank document of a number", "/v2/rerank", `{"model":"test-model","query":"q","documents":["a",7]}`, 400, "documents[1] must be a string or an object"},
		{"rerank negative top_n", openai.RerankPath, `{"model":"test-model","query":"q","documents":["a"],"top_n":-1}`, 400, "top_n must be 0"},
		{"score without text_2", openai.ScorePath, `{"model":"test-model","text_1":"q"}`, 400, "text_2 is required"},
		{"score of unequal lists", "/score", `{"model":"test-model","text_1":["a","b"],"text_2":["c","d","e"]}`, 400, "text_1 holds 2 texts and text_2 3"},
		{"score of numbers", openai.ScorePath, `{"model":"test-model","text_1":1,"text_2":["a"]}`, 400, "text_1 must be a string or an array"},
		{"rerank of an unknown model", openai.RerankPath, `{"model":"bge","query":"q","documents":["a"]}`, 404, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, body := post(t, ts, tc.path, tc.body)
			if code != tc.code {
				t.Fatalf("status %d, want %d: %s", code, tc.code, body)
			}
			var e struct {
				Object, Message, Type string
				Param                 *string
				Code                  int
			}
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatal(err)
			}
			if e.Object != "error" || e.Code != tc.code || e.Type == "" || e.Param != nil || !strings.Contains(e.Message, tc.msg) {
				t.Errorf("body %s, want vLLM's error shape with code %d and %q", body, tc.code, tc.msg)
			}
			if in, err := openai.Decode(body); err != nil || !in.IsError {
				t.Errorf("openai.Decode sees no error in %s (%v)", body, err)
			}
		})
	}
}

// engineSmall is a 2048-token context on a 128-block cache.
func engineSmall() sim.EngineConfig { return sim.EngineConfig{NumBlocks: 128, MaxModelLen: 2048} }

func TestDecodeRequestAccepts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		api        string
		want       request
	}{
		{"content parts are concatenated", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`, "chat",
			request{api: "chat", model: "m", texts: []string{"ab"}}},
		{"null content counts as empty", `{"model":"m","messages":[{"role":"assistant","content":null}]}`, "chat",
			request{api: "chat", model: "m", texts: []string{""}}},
		{"max_completion_tokens stands for max_tokens", `{"model":"m","messages":[{"role":"user","content":"x"}],"max_completion_tokens":5}`, "chat",
			request{api: "chat", model: "m", texts: []string{"x"}, maxTokens: 5}},
		{"token-ID prompt", `{"model":"m","prompt":[1,2,3],"stream":true,"stream_options":{"include_usage":true}}`, "completions",
			request{api: "completions", model: "m", ids: []int{1, 2, 3}, stream: true, includeUsage: true}},
		{"one-string array prompt", `{"model":"m","prompt":["x"],"min_tokens":2,"ignore_eos":true}`, "completions",
			request{api: "completions", model: "m", texts: []string{"x"}, minTokens: 2, ignoreEOS: true}},
		{"responses: instructions, then input items", `{"model":"m","instructions":"be","input":[{"role":"system","content":"s"},{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]}],"max_output_tokens":4,"min_tokens":4,"ignore_eos":true,"stream":true,"store":false,"surge_reasoning_tokens":2}`, "responses",
			request{api: "responses", model: "m", texts: []string{"be", "s", "ab"}, maxTokens: 4, minTokens: 4, ignoreEOS: true, stream: true, includeUsage: true, reasoning: 2}},
		{"responses: input as a string", `{"model":"m","input":"hello"}`, "responses",
			request{api: "responses", model: "m", texts: []string{"hello"}, includeUsage: true}},
		{"messages: a system prompt of blocks, text blocks", `{"model":"m","system":[{"type":"text","text":"sys"}],"messages":[{"role":"user","content":[{"type":"text","text":"q"}]},{"role":"assistant","content":"a"}],"max_tokens":8,"stream":true}`, "messages",
			request{api: "messages", model: "m", texts: []string{"sys", "q", "a"}, maxTokens: 8, stream: true, includeUsage: true}},
		{"embeddings: a batch of strings", `{"model":"m","input":["a","b","c"]}`, "embeddings",
			request{api: "embeddings", model: "m", texts: []string{"a", "b", "c"}, maxTokens: 1, inputs: 3}},
		{"embeddings: token IDs in arrays, base64", `{"model":"m","input":[[1,2],[3]],"encoding_format":"base64"}`, "embeddings",
			request{api: "embeddings", model: "m", ids: []int{1, 2, 3}, maxTokens: 1, inputs: 2, base64: true}},
		{"rerank: strings and text objects, top_n, documents back", `{"model":"m","query":"q","documents":["a",{"text":"b","id":1}],"top_n":1,"return_documents":true}`, "rerank",
			request{api: "rerank", model: "m", texts: []string{"q", "a", "q", "b"}, maxTokens: 1, pairs: []pair{{"q", "a"}, {"q", "b"}}, topN: 1, returnDocs: true}},
		{"score: one text_1 against a list", `{"model":"m","text_1":"q","text_2":["a","b"]}`, "score",
			request{api: "score", model: "m", texts: []string{"q", "a", "q", "b"}, maxTokens: 1, pairs: []pair{{"q", "a"}, {"q", "b"}}}},
		{"score: lists paired one to one", `{"model":"m","text_1":["q","r"],"text_2":["a","b"]}`, "score",
			request{api: "score", model: "m", texts: []string{"q", "a", "r", "b"}, maxTokens: 1, pairs: []pair{{"q", "a"}, {"r", "b"}}}},
		{"score: two strings", `{"model":"m","text_1":"q","text_2":"a"}`, "score",
			request{api: "score", model: "m", texts: []string{"q", "a"}, maxTokens: 1, pairs: []pair{{"q", "a"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeRequest([]byte(tc.body), tc.api)
			if err != nil {
				t.Fatal(err)
			}
			if !equalRequest(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func equalRequest(a, b request) bool {
	ja, _ := json.Marshal([]any{a.api, a.model, a.texts, a.ids, a.maxTokens, a.minTokens, a.ignoreEOS, a.stream, a.includeUsage, a.reasoning, a.inputs, a.base64, fmt.Sprint(a.pairs), a.topN, a.returnDocs})
	jb, _ := json.Marshal([]any{b.api, b.model, b.texts, b.ids, b.maxTokens, b.minTokens, b.ignoreEOS, b.stream, b.includeUsage, b.reasoning, b.inputs, b.base64, fmt.Sprint(b.pairs), b.topN, b.returnDocs})
	return string(ja) == string(jb)
}

// png16 is a 16×16 PNG (vision.Encode's, seed 1) in base64.
const png16 = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAMAAAAoLQ9TAAAAwFBMVEUdoAfUG99S/Pj18rD2U/DesMkzJPlAqBFd2L/51VBUHsWqO1EwW+LxsbyCC7TQwp6HDMZIB4yjqIVNjuFmiepMiSD0WO+CrakPngE6vPI9UdcTi5tfRUkKKN70klZffW5PaTEW0FdXROUmw0YKwsASP1ib7mJ8UubrhN5bslM0ZVymjGLK6dCfJG6lnKvTigcW/wPCfyjY1DqcFWlKAFJ+O2DJT/RdTrdceCwQ2u20sE8CYZFsW7eH58HhnfPaLfZ4oIh0AAAAH0lEQVR4AeTIIQEAAACDsNd6/2J4KjC5XeJBAAAA//9K0jkBlzw+7AAAAABJRU5ErkJggg=="

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":3}`,
		`{"model":"m","prompt":[1,2,3],"stream":true,"stream_options":{"include_usage":true}}`,
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"}]}]}`,
		`{"model":"m","prompt":["x"],"min_tokens":-1}`, `[]`, `null`, `{"prompt":{}}`, ``,
		`{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"a"}]}],"max_output_tokens":3}`,
		`{"model":"m","system":"s","messages":[{"role":"user","content":"q"}],"max_tokens":2}`,
		`{"model":"m","input":[[1],[2,3]],"encoding_format":"base64"}`,
		`{"model":"m","query":"q","documents":["a",{"text":"b"}],"top_n":1}`,
		`{"model":"m","text_1":["q"],"text_2":["a","b"]}`,
		// Image parts of each API.
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"data:image/png;base64,` + png16 + `"}}]}]}`,
		`{"model":"m","input":[{"role":"user","content":[{"type":"input_image","image_url":"data:image/png;base64,` + png16 + `"}]}]}`,
		`{"model":"m","max_tokens":2,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + png16 + `"}}]}]}`,
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, chat bool) {
		api := openai.APICompletions
		if chat {
			api = openai.APIChat
		}
		for _, api := range []string{api, openai.APIResponses, openai.APIMessages, openai.APIEmbeddings, openai.APIRerank, openai.APIScore} {
			checkDecoded(t, body, api)
		}
	})
}

// checkDecoded checks that decodeRequest refuses body as a request of api
// with a 400, or accepts it as a valid request.
func checkDecoded(t *testing.T, body []byte, api string) {
	r, err := decodeRequest(body, api)
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) || ae.status != http.StatusBadRequest || ae.msg == "" {
			t.Fatalf("%s: error %v is not a 400 apiError", api, err)
		}
		return
	}
	if r.api != api || r.model == "" || (len(r.texts) == 0 && len(r.ids) == 0 && len(r.images) == 0) || r.maxTokens < 0 || r.minTokens < 0 || (api == openai.APIEmbeddings) != (r.inputs > 0) ||
		openai.Scores(api) != (len(r.pairs) > 0) || len(r.texts) != 2*len(r.pairs) && len(r.pairs) > 0 {
		t.Fatalf("%s: accepted an invalid request %+v", api, r)
	}
}
