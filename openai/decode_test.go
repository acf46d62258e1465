package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		want   Info
		reason string
	}{
		{`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`, Info{}, "role-only first delta is no token"},
		{`{"choices":[{"delta":{"role":"assistant","content":null}}]}`, Info{}, "llama-server role delta with null content"},
		{`{"choices":[{"delta":{"content":"hi"}}]}`, Info{Answer: true}, "content"},
		{`{"choices":[{"delta":{"content":"\n"}}]}`, Info{Answer: true}, "an escaped newline is content"},
		{`{"choices":[{"delta":{"reasoning_content":"hm"}}]}`, Info{Reasoning: true}, "vLLM/DeepSeek reasoning"},
		{`{"choices":[{"delta":{"content":"","reasoning":"hm"}}]}`, Info{Reasoning: true}, "OpenRouter reasoning with empty content"},
		{`{"choices":[{"delta":{"content":null,"reasoning_content":null,"tool_calls":null}}]}`, Info{}, "SGLang nulls"},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}`, Info{Answer: true, ToolCall: true}, "tool-call delta"},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f"}},{"index":1,"function":{"name":"g","arguments":""}},{"id":"call_1","function":{"name":null,"arguments":"{"}}]}}]}`, Info{Answer: true, ToolCall: true, ToolCalls: 2}, "two calls start (named), one delta repeats an id without a name"},
		{`{"choices":[{"delta":{"tool_calls":[]}}]}`, Info{}, "empty tool_calls"},
		{`{"choices":[{"delta":{"function_call":{"name":"f"}}}]}`, Info{Answer: true, ToolCall: true}, "legacy function_call"},
		{`{"choices":[{"delta":{"refusal":"no"}}]}`, Info{Answer: true}, "a refusal is answer text"},
		{`{"choices":[{"text":" the","finish_reason":null}]}`, Info{Answer: true}, "completions text"},
		{`{"choices":[{"text":"","finish_reason":"length"}]}`, Info{FinishReason: "length"}, "completions finish"},
		{`{"choices":[{"delta":{},"finish_reason":"stop"}],"usage":null}`, Info{FinishReason: "stop"}, "OpenAI finish chunk"},
		{`{"choices":[{"delta":{},"finish_reason":"my_reason"}]}`, Info{FinishReason: "my_reason"}, "uncommon finish reason"},
		{`{"choices":[{"delta":{},"finish_reason":"st\u006fp"}]}`, Info{FinishReason: "stop"}, "escaped finish reason"},
		{`{"choices":[],"usage":{"prompt_tokens":17,"total_tokens":21,"completion_tokens":4}}`,
			Info{HasUsage: true, Usage: Usage{17, 4, 21}}, "usage-only final chunk"},
		{`{"choices":null,"usage":{"prompt_tokens":3,"completion_tokens":2.0}}`,
			Info{HasUsage: true, Usage: Usage{PromptTokens: 3, CompletionTokens: 2}}, "null choices, float count"},
		{`{"usage":{"prompt_tokens":null,"prompt_tokens_details":{"cached_tokens":0}}}`, Info{HasUsage: true}, "null count"},
		{`{"choices":[{"delta":{"content":"a"}},{"delta":{"reasoning_content":"b"}}]}`, Info{Answer: true, Reasoning: true}, "n>1 choices"},
		{`{"choices":[{"message":{"role":"assistant","content":"Hi","reasoning_content":"x"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
			Info{Answer: true, Reasoning: true, FinishReason: "stop", HasUsage: true, Usage: Usage{1, 2, 3}}, "non-streamed chat response"},
		{`{"error":{"code":500,"message":"Failed to parse input","type":"server_error"}}`,
			Info{IsError: true, ErrorMessage: "Failed to parse input"}, "llama-server stream error"},
		{`{"error":{"message":"a \"quoted\" \u00e9rror"}}`, Info{IsError: true, ErrorMessage: `a "quoted" érror`}, "escaped message"},
		{`{"error":"overloaded"}`, Info{IsError: true, ErrorMessage: "overloaded"}, "string error"},
		{`{"error":503}`, Info{IsError: true, ErrorMessage: "503"}, "other error values are quoted raw"},
		{`{"error":{"code":1}}`, Info{IsError: true}, "error without message"},
		{`{"error":null,"choices":[]}`, Info{}, "null error is no error"},
		{`{"error":false}`, Info{}, "false error is no error"},
		{`{"object":"error","message":"bad","type":"BadRequestError","code":400}`,
			Info{IsError: true, ErrorMessage: "bad"}, "older vLLM error object"},
		{`{"object":"chat.completion.chunk","message":"x"}`, Info{}, "a message member alone is not an error"},
		{" \n{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\r\n", Info{Answer: true}, "surrounding whitespace"},
		{`{"timings":{"prompt_n":11,"prompt_ms":21.3},"choices":[{"delta":{"content":"Cont"}}]}`,
			Info{Answer: true, HasTimings: true, Timings: Timings{PromptN: 11, PromptMS: 21.3}}, "llama-server timings read"},
		{`{"timings":{"cache_n":4,"prompt_n":7,"prompt_ms":2.5e1,"prompt_per_token_ms":1.9,"predicted_n":3,"predicted_ms":30.125,"predicted_per_second":99.7}}`,
			Info{HasTimings: true, Timings: Timings{CacheN: 4, PromptN: 7, PromptMS: 25, PredictedN: 3, PredictedMS: 30.125}}, "all llama-server timings kept, rates skipped"},
		{`{"timings":{"prompt_ms":null,"predicted_ms":1e999}}`, Info{HasTimings: true}, "null and out-of-range times ignored"},
		{`{"timings":null,"surge_timings":null}`, Info{}, "null timings are absent"},
		{`{"choices":[null,{"delta":null,"message":null,"text":null,"index":null,"finish_reason":null}]}`, Info{}, "null everywhere"},
		{`{"choices":[],"usage":{"prompt_tokens":64,"completion_tokens":32,"total_tokens":96,"prompt_tokens_details":{"cached_tokens":48}},"surge_timings":{"queued_ms":0.25,"ttft_ms":12.5,"e2e_ms":340.75}}`,
			Info{HasUsage: true, Usage: Usage{64, 32, 96}, CachedTokens: 48, HasSurgeTimings: true, SurgeTimings: SurgeTimings{0.25, 12.5, 340.75}}, "surge engine final chunk"},
		{`{"usage":{"completion_tokens":900,"completion_tokens_details":{"reasoning_tokens":896,"audio_tokens":0}}}`,
			Info{HasUsage: true, Usage: Usage{CompletionTokens: 900}, HiddenReasoning: 896}, "OpenAI's hidden reasoning tokens"},
		{`{"usage":{"prompt_tokens_details":null,"cached_tokens":5}}`, Info{HasUsage: true}, "cached_tokens only inside prompt_tokens_details"},
		{`{"usage":{"prompt_tokens_details":{"cached_tokens":-0.0,"audio_tokens":3}},"surge_timings":{"ttft_ms":-1}}`,
			Info{HasUsage: true, HasSurgeTimings: true, SurgeTimings: SurgeTimings{TTFTMS: -1}}, "odd but valid numbers kept"},
	}
	for _, tt := range tests {
		got, err := Decode([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: Decode(%s): %v", tt.reason, tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: Decode(%s) = %+v, want %+v", tt.reason, tt.in, got, tt.want)
		}
		ref, err := refDecode([]byte(tt.in))
		if err != nil || ref != got {
			t.Errorf("%s: reference gives %+v, %v; Decode %+v", tt.reason, ref, err, got)
		}
	}
}

// TestDecodeTypes checks that a member of the wrong type is refused with a
// *TypeError naming it, not read as a chunk with nothing in it.
func TestDecodeTypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{`{"choices":"hello"}`, "choices is a string, want an array or null"},
		{`{"choices":{"0":{}}}`, "choices is an object, want an array or null"},
		{`{"choices":["a"]}`, "choices[] is a string, want an object or null"},
		{`{"choices":[{"delta":"hi"}]}`, "choices[].delta is a string, want an object or null"},
		{`{"choices":[{"message":[]}]}`, "choices[].message is an array, want an object or null"},
		{`{"choices":[{"delta":{"content":42}}]}`, "choices[].delta.content is a number, want a string or null"},
		{`{"choices":[{"message":{"content":["a"]}}]}`, "choices[].message.content is an array, want a string or null"},
		{`{"choices":[{"delta":{"reasoning_content":true}}]}`, "choices[].delta.reasoning_content is a boolean, want a string or null"},
		{`{"choices":[{"delta":{"refusal":{}}}]}`, "choices[].delta.refusal is an object, want a string or null"},
		{`{"choices":[{"delta":{"tool_calls":{"a":1}}}]}`, "choices[].delta.tool_calls is an object, want an array or null"},
		{`{"choices":[{"delta":{"function_call":"f"}}]}`, "choices[].delta.function_call is a string, want an object or null"},
		{`{"choices":[{"text":7}]}`, "choices[].text is a number, want a string or null"},
		{`{"choices":[{"finish_reason":1}]}`, "choices[].finish_reason is a number, want a string or null"},
		{`{"choices":[{"index":"0"}]}`, "choices[].index is a string, want a number or null"},
		{`{"usage":"lots"}`, "usage is a string, want an object or null"},
		{`{"usage":{"completion_tokens":"3"}}`, "usage.completion_tokens is a string, want a number or null"},
		{`{"usage":{"prompt_tokens_details":{"cached_tokens":false}}}`, "usage.prompt_tokens_details.cached_tokens is a boolean, want a number or null"},
		{`{"usage":{"prompt_tokens_details":5}}`, "usage.prompt_tokens_details is a number, want an object or null"},
		{`{"usage":{"completion_tokens_details":{"reasoning_tokens":"9"}}}`, "usage.completion_tokens_details.reasoning_tokens is a string, want a number or null"},
		{`{"surge_timings":[1]}`, "surge_timings is an array, want an object or null"},
		{`{"timings":{"prompt_ms":"21"}}`, "timings.prompt_ms is a string, want a number or null"},
	}
	for _, tt := range tests {
		for name, decode := range map[string]func([]byte) error{
			"Decode":     func(b []byte) error { _, err := Decode(b); return err },
			"DecodeText": func(b []byte) error { _, _, _, err := DecodeText(b, nil, nil); return err },
		} {
			err := decode([]byte(tt.in))
			var te *TypeError
			if !errors.As(err, &te) || te.Error() != tt.want {
				t.Errorf("%s(%s): error %v, want %q", name, tt.in, err, tt.want)
			}
		}
		if _, err := refDecode([]byte(tt.in)); err == nil {
			t.Errorf("reference accepts %s", tt.in)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		reason string
	}{
		{``, "empty"},
		{`[DONE]`, "the sentinel is not JSON"},
		{`[]`, "not an object"},
		{`"x"`, "not an object"},
		{`{"choices":[{"delta":{"content":"a}}]}`, "unterminated string"},
		{`{"choices":[{"delta":{"content":"a"}}]`, "truncated"},
		{`{"choices":[]} {}`, "two values"},
		{`{"a":01}`, "leading zero"},
		{`{"a":1.}`, "fraction without digits"},
		{`{"a":-}`, "lone minus"},
		{`{"a":1e}`, "exponent without digits"},
		{`{"a":tru}`, "bad literal"},
		{`{"a":"\x"}`, "bad escape"},
		{`{"a":"\u12G4"}`, "bad unicode escape"},
		{"{\"a\":\"\x01\"}", "raw control character"},
		{`{"a":1,}`, "trailing comma"},
		{`{a:1}`, "unquoted key"},
		{`{"a" 1}`, "missing colon"},
		{`{"choices":[1 2]}`, "missing comma in array"},
		{strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001), "too deep"},
	}
	for _, tt := range tests {
		if _, err := Decode([]byte(tt.in)); err == nil {
			t.Errorf("%s: Decode(%.40q) succeeded", tt.reason, tt.in)
		}
		if json.Valid([]byte(tt.in)) && tt.reason != "not an object" && tt.reason != "too deep" {
			t.Errorf("%s: test input is valid JSON", tt.reason)
		}
	}
}

func TestDecodeTestdataResponses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		want   Info
		reason string
	}{
		{"vllm_chat.json", Info{Answer: true, Reasoning: true, FinishReason: "stop", HasUsage: true, Usage: Usage{6, 24, 30}}, "chat with reasoning and empty tool_calls"},
		{"vllm_completions.json", Info{Answer: true, FinishReason: "length", HasUsage: true, Usage: Usage{4, 8, 12}}, "completions"},
		{"openai_error.json", Info{IsError: true, ErrorMessage: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130012 tokens."}, "indented error body"},
	}
	for _, tt := range tests {
		b, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(b)
		if err != nil || got != tt.want {
			t.Errorf("%s: Decode(%s) = %+v, %v; want %+v", tt.reason, tt.file, got, err, tt.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body   string
		max    int
		want   string
		reason string
	}{
		{`{"error":{"message":"model not found"}}`, 100, "model not found", "JSON error message"},
		{"Bad Gateway\n", 100, "Bad Gateway", "plain text trimmed"},
		{"line1\nline2\tx", 100, "line1 line2 x", "control characters become spaces"},
		{"abcdefghij", 8, "abcde…", "cut with a marker"},
		{"ééééé", 6, "é…", "cut on a rune boundary"},
	}
	for _, tt := range tests {
		if got := ErrorText([]byte(tt.body), tt.max); got != tt.want || len(got) > tt.max {
			t.Errorf("%s: ErrorText(%q, %d) = %q, want %q", tt.reason, tt.body, tt.max, got, tt.want)
		}
	}
}

// refDecode is Decode's specification written with encoding/json: decode
// into generic values and read the same members. It must agree with Decode
// on every valid object without duplicate keys.
func refDecode(data []byte) (Info, error) {
	if !json.Valid(data) {
		return Info{}, errors.New("invalid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return Info{}, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Info{}, errors.New("not an object")
	}
	if err := refTypes(obj); err != nil {
		return Info{}, err
	}
	var in Info
	if choices, ok := obj["choices"].([]any); ok {
		for _, c := range choices {
			refChoice(c, &in)
		}
	}
	if u, ok := obj["usage"].(map[string]any); ok {
		in.HasUsage = true
		in.Usage = Usage{refInt(u["prompt_tokens"]), refInt(u["completion_tokens"]), refInt(u["total_tokens"])}
		if d, ok := u["prompt_tokens_details"].(map[string]any); ok {
			in.CachedTokens = refInt(d["cached_tokens"])
		}
		if d, ok := u["completion_tokens_details"].(map[string]any); ok {
			in.HiddenReasoning = refInt(d["reasoning_tokens"])
		}
	}
	if st, ok := obj["surge_timings"].(map[string]any); ok {
		in.HasSurgeTimings = true
		in.SurgeTimings = SurgeTimings{refFloat(st["queued_ms"]), refFloat(st["ttft_ms"]), refFloat(st["e2e_ms"])}
	}
	if tm, ok := obj["timings"].(map[string]any); ok {
		in.HasTimings = true
		in.Timings = Timings{CacheN: refInt(tm["cache_n"]), PromptN: refInt(tm["prompt_n"]), PromptMS: refFloat(tm["prompt_ms"]),
			PredictedN: refInt(tm["predicted_n"]), PredictedMS: refFloat(tm["predicted_ms"])}
	}
	switch e := obj["error"].(type) {
	case nil:
	case bool:
		if e {
			in.IsError, in.ErrorMessage = true, "true"
		}
	case string:
		in.IsError, in.ErrorMessage = true, e
	case map[string]any:
		in.IsError = true
		in.ErrorMessage, _ = e["message"].(string)
	default:
		var raw map[string]json.RawMessage
		_ = json.Unmarshal(data, &raw)
		in.IsError, in.ErrorMessage = true, string(raw["error"])
	}
	if o, _ := obj["object"].(string); o == "error" {
		in.IsError = true
		if in.ErrorMessage == "" {
			in.ErrorMessage, _ = obj["message"].(string)
		}
	}
	return in, nil
}

// refTypes mirrors Decode's type rule: every member Decode reads must be
// null or of its type.
func refTypes(obj map[string]any) error {
	isMap := func(v any) bool { _, ok := v.(map[string]any); return v == nil || ok }
	isList := func(v any) bool { _, ok := v.([]any); return v == nil || ok }
	isStr := func(v any) bool { _, ok := v.(string); return v == nil || ok }
	isNum := func(v any) bool { _, ok := v.(json.Number); return v == nil || ok }
	bad := errors.New("a member of the wrong type")
	fields := func(m any, check func(any) bool, keys ...string) bool {
		o, _ := m.(map[string]any)
		for _, k := range keys {
			if !check(o[k]) {
				return false
			}
		}
		return true
	}
	if !isList(obj["choices"]) || !isMap(obj["usage"]) || !isMap(obj["surge_timings"]) || !isMap(obj["timings"]) {
		return bad
	}
	choices, _ := obj["choices"].([]any)
	for _, c := range choices {
		if !isMap(c) || !fields(c, isMap, "delta", "message") || !fields(c, isStr, "text", "finish_reason") || !fields(c, isNum, "index") {
			return bad
		}
		for _, k := range []string{"delta", "message"} {
			cm, _ := c.(map[string]any)
			d := cm[k]
			if !fields(d, isStr, "content", "refusal", "reasoning_content", "reasoning") || !fields(d, isList, "tool_calls") || !fields(d, isMap, "function_call") {
				return bad
			}
		}
	}
	u := obj["usage"]
	if !fields(u, isNum, "prompt_tokens", "completion_tokens", "total_tokens") || !fields(u, isMap, "prompt_tokens_details", "completion_tokens_details") {
		return bad
	}
	if u, ok := u.(map[string]any); ok && (!fields(u["prompt_tokens_details"], isNum, "cached_tokens") || !fields(u["completion_tokens_details"], isNum, "reasoning_tokens")) {
		return bad
	}
	if !fields(obj["surge_timings"], isNum, "queued_ms", "ttft_ms", "e2e_ms") ||
		!fields(obj["timings"], isNum, "cache_n", "prompt_n", "prompt_ms", "predicted_n", "predicted_ms") {
		return bad
	}
	return nil
}

// refChoice reads one choice for refDecode.
func refChoice(c any, in *Info) {
	choice, ok := c.(map[string]any)
	if !ok {
		return
	}
	for _, k := range []string{"delta", "message"} {
		d, ok := choice[k].(map[string]any)
		if !ok {
			continue
		}
		in.Answer = in.Answer || refNonEmpty(d["content"]) || refNonEmpty(d["refusal"])
		in.Reasoning = in.Reasoning || refNonEmpty(d["reasoning_content"]) || refNonEmpty(d["reasoning"])
		if tc, ok := d["tool_calls"].([]any); ok && len(tc) > 0 {
			in.Answer, in.ToolCall = true, true
			for _, e := range tc {
				if m, ok := e.(map[string]any); ok {
					if f, ok := m["function"].(map[string]any); ok && refNonEmpty(f["name"]) {
						in.ToolCalls++
					}
				}
			}
		}
		if _, ok := d["function_call"].(map[string]any); ok {
			in.Answer, in.ToolCall = true, true
		}
	}
	in.Answer = in.Answer || refNonEmpty(choice["text"])
	if f, ok := choice["finish_reason"].(string); ok && f != "" {
		in.FinishReason = f
	}
}

func refNonEmpty(v any) bool { s, ok := v.(string); return ok && s != "" }

// refInt mirrors Decode's integer rule: exact below 10^18, else the float
// value truncated if below 2^62, else absent (0).
func refInt(v any) int {
	i, _ := refIntOK(v)
	return i
}

// refIntOK is refInt that also reports whether the value is present.
func refIntOK(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	s := strings.TrimPrefix(string(n), "-")
	if len(s) <= 18 && !strings.ContainsAny(s, ".eE") {
		i, _ := strconv.Atoi(string(n))
		return i, true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.Abs(f) >= 1<<62 {
		return 0, false
	}
	return int(f), true
}

// refFloat mirrors Decode's float rule: the number's float64 value, or
// absent if it is out of range.
func refFloat(v any) float64 {
	n, ok := v.(json.Number)
	if !ok {
		return 0
	}
	f, err := n.Float64()
	if err != nil {
		return 0
	}
	return f
}

// hasDuplicateKeys reports whether any object in the valid JSON data repeats
// a key, where last-wins decoding and Decode's in-order reading may differ.
func hasDuplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys  map[string]bool
		isObj bool
		key   bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return false
		}
		if err != nil {
			return true
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.isObj && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].isObj {
					stack[len(stack)-1].key = true
				}
				continue
			}
			k := tok.(string)
			if top.keys[k] {
				return true
			}
			top.keys[k] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, isObj: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].isObj {
			stack[len(stack)-1].key = true
		}
	}
}
