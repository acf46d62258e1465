package openai

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

func TestDecodeText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in                string
		answer, reasoning string
		reason            string
	}{
		{`{"choices":[{"index":0,"delta":{"content":"Hello"}}]}`, "Hello", "", "plain content"},
		{`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`, "", "", "role-only delta"},
		{`{"choices":[{"delta":{"content":null,"reasoning_content":null}}]}`, "", "", "nulls are no text"},
		{`{"choices":[{"delta":{"content":"a\nb\tc\"d\\e\/f\bg\fh\ri"}}]}`, "a\nb\tc\"d\\e/f\bg\fh\ri", "", "every short escape"},
		{`{"choices":[{"delta":{"content":"\u00e9\u4e2d\u0000\u001f"}}]}`, "é中\x00\x1f", "", "\\u escapes of BMP runes and controls"},
		{`{"choices":[{"delta":{"content":"\ud83d\ude00!"}}]}`, "😀!", "", "surrogate pair joined"},
		{`{"choices":[{"delta":{"content":"\uD83D\uDE00"}}]}`, "😀", "", "upper-case hex digits"},
		{`{"choices":[{"delta":{"content":"\ud83d!"}}]}`, "\uFFFD!", "", "lone high surrogate"},
		{`{"choices":[{"delta":{"content":"\ude00x"}}]}`, "\uFFFDx", "", "lone low surrogate"},
		{`{"choices":[{"delta":{"content":"\ud83d\u0041"}}]}`, "\uFFFDA", "", "high surrogate then a non-surrogate escape"},
		{`{"choices":[{"delta":{"content":"\ud83d\ud83d\ude00"}}]}`, "\uFFFD😀", "", "two highs: the second pairs"},
		{`{"choices":[{"delta":{"content":"\ud83d"}}]}`, "\uFFFD", "", "high surrogate at the end"},
		{"{\"choices\":[{\"delta\":{\"content\":\"a\xffb\"}}]}", "a\uFFFDb", "", "invalid UTF-8 replaced"},
		{"{\"choices\":[{\"delta\":{\"content\":\"\xed\xa0\x80\\n\"}}]}", "\uFFFD\uFFFD\uFFFD\n", "", "UTF-8-encoded surrogate is three bad bytes"},
		{`{"choices":[{"delta":{"content":"日本語 ok"}}]}`, "日本語 ok", "", "raw UTF-8 copied"},
		{`{"choices":[{"delta":{"reasoning_content":"Let me \"think\""}}]}`, "", `Let me "think"`, "vLLM/DeepSeek reasoning"},
		{`{"choices":[{"delta":{"content":"","reasoning":"hm"}}]}`, "", "hm", "OpenRouter/new vLLM reasoning"},
		{`{"choices":[{"delta":{"reasoning":"x","reasoning_content":"x"}}]}`, "", "x", "same text under both names kept once"},
		{`{"choices":[{"delta":{"reasoning":"","reasoning_content":"y"}}]}`, "", "y", "an empty first name does not hide the other"},
		{`{"choices":[{"message":{"role":"assistant","reasoning_content":"Think.","content":"Answer."},"finish_reason":"stop"}]}`,
			"Answer.", "Think.", "whole chat response with reasoning and content"},
		{`{"choices":[{"delta":{"refusal":"I can't."}}]}`, "I can't.", "", "a refusal is answer text"},
		{`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{\"a\":1}"}}]}}]}`, "", "", "tool calls append nothing"},
		{`{"choices":[{"delta":{"function_call":{"name":"f","arguments":"{}"}}}]}`, "", "", "function_call appends nothing"},
		{`{"choices":[{"index":0,"text":" far\u0020away","finish_reason":"length"}]}`, " far away", "", "completions text"},
		{`{"choices":[{"index":1,"delta":{"content":"other"}}]}`, "", "", "choice index 1 ignored"},
		{`{"choices":[{"delta":{"content":"other","reasoning":"r"},"index":1}]}`, "", "", "index after the delta still drops it"},
		{`{"choices":[{"index":1,"delta":{"content":"b"}},{"index":0,"delta":{"content":"a"}}]}`, "a", "", "choice 0 found by index, not position"},
		{`{"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]}`, "a", "", "without index, the first element is choice 0"},
		{`{"choices":[null,{"delta":{"content":"b"}}]}`, "", "", "a null element still takes position 0"},
		{`{"choices":[{"index":null,"delta":{"content":"a"}}]}`, "a", "", "a null index is ignored: position 0"},
		{`{"choices":[{"index":0.0,"delta":{"content":"a"}}]}`, "a", "", "a float index counts"},
		{`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`, "", "", "usage-only chunk"},
		{`{"error":{"message":"boom"}}`, "", "", "an error object has no text"},
		{`{"choices":[{"delta":{"content":"a"},"text":"b","message":{"content":"c"}}]}`, "abc", "", "every answer member in order"},
	}
	for _, tt := range tests {
		info, answer, reasoning, err := DecodeText([]byte(tt.in), nil, nil)
		if err != nil {
			t.Errorf("%s: DecodeText(%s): %v", tt.reason, tt.in, err)
			continue
		}
		if string(answer) != tt.answer || string(reasoning) != tt.reasoning {
			t.Errorf("%s: DecodeText(%s) text %q, reasoning %q; want %q, %q", tt.reason, tt.in, answer, reasoning, tt.answer, tt.reasoning)
		}
		if want, _ := Decode([]byte(tt.in)); info != want {
			t.Errorf("%s: DecodeText info %+v, Decode %+v", tt.reason, info, want)
		}
		if a, r := refText([]byte(tt.in)); a != tt.answer || r != tt.reasoning {
			t.Errorf("%s: reference gives %q, %q", tt.reason, a, r)
		}
	}
}

func TestDecodeTextChunks(t *testing.T) {
	t.Parallel()
	chunks := []string{
		`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`,
		`{"choices":[{"index":0,"delta":{"reasoning_content":"The user"}}]}`,
		`{"choices":[{"index":0,"delta":{"reasoning_content":" says \"hi\".\n"}}]}`,
		`{"choices":[{"index":1,"delta":{"content":"n=2 noise"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"Hello"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":" \ud83d\udc4b"}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8}}`,
	}
	// Caller's buffers with a prefix: DecodeText appends, never resets.
	answer, reasoning := []byte("A:"), []byte("R:")
	for _, c := range chunks {
		var err error
		if _, answer, reasoning, err = DecodeText([]byte(c), answer, reasoning); err != nil {
			t.Fatalf("DecodeText(%s): %v", c, err)
		}
	}
	if want := "A:Hello 👋"; string(answer) != want {
		t.Errorf("answer %q, want %q", answer, want)
	}
	if want := "R:The user says \"hi\".\n"; string(reasoning) != want {
		t.Errorf("reasoning %q, want %q", reasoning, want)
	}
}

func TestDecodeTextTestdata(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file              string
		answer, reasoning string
		reason            string
	}{
		{"vllm_chat.json", "Hello! How can I help?", "The user greets me.", "whole chat response"},
		{"vllm_reasoning.sse", "Paris.", "Okay, the user asks", "streamed reasoning then answer"},
		{"openrouter_reasoning.sse", "4", "Simple sum.", "reasoning under its new name"},
		{"vllm_tools.sse", "", "", "tool calls are no text"},
	}
	for _, tt := range tests {
		b, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		var answer, reasoning []byte
		if strings.HasSuffix(tt.file, ".json") {
			_, answer, reasoning, err = DecodeText(b, nil, nil)
		} else {
			var p Parser
			p.Feed(b)
			for ev, ok := p.Next(); ok && err == nil; ev, ok = p.Next() {
				if !ev.Done() {
					_, answer, reasoning, err = DecodeText(ev.Data, answer, reasoning)
				}
			}
		}
		if err != nil || string(answer) != tt.answer || string(reasoning) != tt.reasoning {
			t.Errorf("%s: %s gives %q, %q, %v; want %q, %q", tt.reason, tt.file, answer, reasoning, err, tt.answer, tt.reasoning)
		}
	}
}

func TestDecodeTextRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		reason string
	}{
		{`{"choices":[{"delta":{"content":"a\x"}}]}`, "invalid escape"},
		{`{"choices":[{"delta":{"content":"\ud83"}}]}`, "short \\u escape"},
		{`{"choices":[{"delta":{"content":"\u12G4"}}]}`, "non-hex \\u escape"},
		{"{\"choices\":[{\"delta\":{\"content\":\"a\nb\"}}]}", "raw newline in a string"},
		{`{"choices":[{"delta":{"content":"ok"}}]`, "truncated after text"},
		{`{"choices":[{"delta":{"content":"ok","reasoning":"r"}},]}`, "trailing comma after text"},
		{`{"choices":[{"text":"ok"}]} x`, "garbage after the object"},
	}
	for _, tt := range tests {
		answer, reasoning := []byte("keep"), []byte("me")
		_, a, r, err := DecodeText([]byte(tt.in), answer, reasoning)
		if err == nil {
			t.Errorf("%s: DecodeText(%s) succeeded", tt.reason, tt.in)
		}
		if string(a) != "keep" || string(r) != "me" {
			t.Errorf("%s: on error got %q, %q; want the buffers as passed", tt.reason, a, r)
		}
		if _, derr := Decode([]byte(tt.in)); derr == nil {
			t.Errorf("%s: Decode accepts what DecodeText rejects", tt.reason)
		}
	}
}

// TestDecodeTextAllocs is not parallel: AllocsPerRun forbids it.
func TestDecodeTextAllocs(t *testing.T) {
	tests := []struct {
		in     string
		reason string
	}{
		{`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" token"},"logprobs":null,"finish_reason":null}]}`, "plain content"},
		{`{"choices":[{"index":0,"delta":{"content":"a\n\"b\" \u00e9 \ud83d\ude00","reasoning_content":"\t"}}]}`, "escaped content and reasoning"},
		{`{"choices":[{"index":1,"delta":{"content":"dropped"}},{"index":0,"text":"x"}]}`, "n=2"},
	}
	for _, tt := range tests {
		data := []byte(tt.in)
		answer, reasoning := make([]byte, 0, 256), make([]byte, 0, 256)
		allocs := testing.AllocsPerRun(100, func() {
			_, answer, reasoning, _ = DecodeText(data, answer[:0], reasoning[:0])
		})
		if allocs != 0 {
			t.Errorf("%s: DecodeText allocates %v times with room in its buffers", tt.reason, allocs)
		}
		if len(answer) == 0 {
			t.Errorf("%s: no text decoded", tt.reason)
		}
	}
}

func TestDecodeTextRandomEscapes(t *testing.T) {
	t.Parallel()
	// Pieces of JSON string text, chosen to meet each other in every
	// order: surrogate halves next to each other or to other escapes,
	// invalid UTF-8 next to valid runes.
	pieces := []string{`a`, ` `, `\n`, `\"`, `\\`, `\/`, `\t`, `\u0041`, `\u00E9`, `\u0000`,
		`\ud83d`, `\ude00`, `\uDBFF`, `\uDFFF`, `\ud800`, `\uffff`, "é", "😀", "\xff", "\xed\xa0\x80", "\xf0\x9f"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		lit := sb.String()
		var want string
		if err := json.Unmarshal([]byte(`"`+lit+`"`), &want); err != nil {
			t.Fatalf("encoding/json rejects %q: %v", lit, err)
		}
		chunk := `{"choices":[{"delta":{"content":"` + lit + `","reasoning":"` + lit + `"}}]}`
		_, answer, reasoning, err := DecodeText([]byte(chunk), nil, nil)
		if err != nil || string(answer) != want || string(reasoning) != want {
			t.Fatalf("DecodeText of %q gives %q, %q, %v; encoding/json %q", lit, answer, reasoning, err, want)
		}
	}
}

// checkDecodeText compares DecodeText with Decode's result (info, err) on
// b, and its text with refText; the buffers passed in have a prefix that
// must be kept.
func checkDecodeText(t *testing.T, b []byte, info Info, err error) {
	got, answer, reasoning, terr := DecodeText(b, []byte("A"), []byte("R"))
	if (terr == nil) != (err == nil) || got != info {
		t.Fatalf("DecodeText(%q) = %+v, %v; Decode %+v, %v", b, got, terr, info, err)
	}
	checkDecodeCalls(t, APIChat, b, got, answer, reasoning, terr)
	if terr != nil {
		if string(answer) != "A" || string(reasoning) != "R" {
			t.Fatalf("DecodeText(%q) failed with %q, %q: want the buffers as passed", b, answer, reasoning)
		}
		return
	}
	wantA, wantR := refText(b)
	if string(answer) != "A"+wantA || string(reasoning) != "R"+wantR {
		t.Fatalf("DecodeText(%q) text %q, reasoning %q; reference %q, %q", b, answer[1:], reasoning[1:], wantA, wantR)
	}
}

// member is one member of an object decoded by refOrdered.
type member struct {
	key string
	val any
}

// refOrdered decodes the next value with encoding/json's tokenizer,
// keeping objects as their members in order, duplicates included, since
// DecodeText appends text in the order it reads it. Arrays are []any,
// strings string, numbers json.Number.
func refOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		obj := []member{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := refOrdered(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{k.(string), v})
		}
		_, err = dec.Token()
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := refOrdered(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err = dec.Token()
		return arr, err
	}
	return tok, nil
}

// refText is DecodeText's text written with encoding/json's decoding of
// data, a valid JSON object: the strings of choice 0 in order of reading.
func refText(data []byte) (answer, reasoning string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, _ := refOrdered(dec)
	obj, _ := v.([]member)
	for _, m := range obj {
		if m.key != "choices" {
			continue
		}
		choices, _ := m.val.([]any)
		for pos, c := range choices {
			if a, r, index := refChoiceText(c, pos); index == 0 {
				answer += a
				reasoning += r
			}
		}
	}
	return answer, reasoning
}

// refChoiceText returns the text of one choice and its index.
func refChoiceText(c any, pos int) (answer, reasoning string, index int) {
	index = pos
	choice, _ := c.([]member)
	for _, m := range choice {
		switch m.key {
		case "index":
			if n, ok := refIntOK(m.val); ok {
				index = n
			}
		case "text":
			s, _ := m.val.(string)
			answer += s
		case "delta", "message":
			delta, _ := m.val.([]member)
			reasoned := false
			for _, f := range delta {
				s, _ := f.val.(string)
				switch f.key {
				case "content", "refusal":
					answer += s
				case "reasoning_content", "reasoning":
					if s != "" && !reasoned {
						reasoning += s
						reasoned = true
					}
				}
			}
		}
	}
	return answer, reasoning, index
}
