package openai

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

func TestAPIRequestsMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	msgs := []Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "quote \" é \u2028 \xff"}}
	tests := []struct {
		req interface {
			AppendJSON([]byte) []byte
		}
		reason string
	}{
		{&ResponsesRequest{}, "empty responses request"},
		{&ResponsesRequest{Model: "m", Input: msgs, MaxOutputTokens: 64, MinTokens: 64, IgnoreEOS: true,
			Temperature: ptr(0.0), TopP: ptr(0.9), Stream: true, Store: ptr(false), SurgeReasoningTokens: 7}, "every responses field"},
		{&ResponsesRequest{Input: msgs[1:], Store: ptr(true)}, "store true"},
		{&MessagesRequest{}, "empty messages request: max_tokens is always written"},
		{&MessagesRequest{Model: "m", System: "Be brief.", Messages: msgs[1:], MaxTokens: 32, MinTokens: 32, IgnoreEOS: true,
			Temperature: ptr(1e-7), TopP: ptr(1.0), Stream: true, SurgeReasoningTokens: 3}, "every messages field"},
		{&EmbeddingsRequest{}, "empty embeddings request: input is null"},
		{&EmbeddingsRequest{Model: "m", Input: []string{}}, "no inputs"},
		{&EmbeddingsRequest{Model: "m", Input: []string{"a", "b \"c\"", ""}}, "a batch of inputs"},
		{&RerankRequest{}, "empty rerank request: query is empty, documents null"},
		{&RerankRequest{Model: "m", Query: "q \"é\"", Documents: []string{"a", "<b>&", ""}, TopN: 2, ReturnDocuments: true}, "every rerank field"},
		{&RerankRequest{Model: "m", Query: "q", Documents: []string{}}, "no documents"},
		{&ScoreRequest{}, "empty score request"},
		{&ScoreRequest{Model: "m", Text1: "q\n", Text2: []string{"a", "\u2028"}}, "a text against two"},
	}
	for _, tt := range tests {
		got := tt.req.AppendJSON([]byte("x"))
		if want := stdJSON(t, tt.req); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Errorf("%s:\n got %s\nwant x%s", tt.reason, got, want)
		}
	}
}

func TestConversational(t *testing.T) {
	t.Parallel()
	for api, want := range map[string]bool{"": true, APIChat: true, APIResponses: true, APIMessages: true, APICompletions: false, APIEmbeddings: false, APIRerank: false, APIScore: false} {
		if got := Conversational(api); got != want {
			t.Errorf("Conversational(%q) = %v, want %v", api, got, want)
		}
	}
	for _, api := range APIs() {
		if _, ok := Path(api); !ok {
			t.Errorf("APIs() lists %q, which Path does not know", api)
		}
		if Streams(api) != (api != APIEmbeddings && api != APIRerank && api != APIScore) {
			t.Errorf("Streams(%q) = %v", api, Streams(api))
		}
	}
}

func TestDecodeAPIBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file              string
		want              Info
		answer, reasoning string
		reason            string
	}{
		{"openai_response.json", Info{Answer: true, Reasoning: true, FinishReason: "stop", HasUsage: true, Usage: Usage{328, 52, 380}, HiddenReasoning: 12},
			"The image depicts a scenic landscape.", "Thinking.", "a whole Responses API response with a reasoning summary"},
		{"anthropic_message.json", Info{Answer: true, Reasoning: true, FinishReason: "length", HasUsage: true, Usage: Usage{3195, 12, 0}, CachedTokens: 1000},
			"Hi! My name is Claude.", "Let me think.", "a whole Messages API response: the prompt counts the cache's parts"},
		{"openai_embeddings.json", Info{HasUsage: true, Usage: Usage{8, 0, 8}, Embeddings: 2}, "", "", "embeddings as numbers and as base64"},
		{"llmd_embeddings.json", Info{HasUsage: true, Usage: Usage{5, 0, 5}, Embeddings: 2}, "", "", "llm-d-inference-sim's embeddings, captured"},
		{"vllm_rerank.json", Info{HasUsage: true, Usage: Usage{56, 0, 56}, Scores: 2}, "", "", "vLLM's rerank, as its docs show it: total_tokens alone is the prompt"},
		{"cohere_rerank.json", Info{Scores: 3}, "", "", "Cohere's v2 rerank: no usage, billed search units"},
		{"vllm_score.json", Info{HasUsage: true, Usage: Usage{37, 0, 37}, Scores: 2}, "", "", "vLLM's score API"},
	}
	for _, tt := range tests {
		b, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		api := fileAPI(tt.file)
		got, err := DecodeAPI(api, b)
		if err != nil || got != tt.want {
			t.Errorf("%s: DecodeAPI(%s, %s) = %+v, %v; want %+v", tt.reason, api, tt.file, got, err, tt.want)
		}
		_, answer, reasoning, err := DecodeAPIText(api, b, nil, nil)
		if err != nil || string(answer) != tt.answer || string(reasoning) != tt.reasoning {
			t.Errorf("%s: DecodeAPIText text %q, reasoning %q, %v; want %q, %q", tt.reason, answer, reasoning, err, tt.answer, tt.reasoning)
		}
		checkDecodeAPI(t, api, b)
	}
}

func TestDecodeAPIStreamText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, answer, reasoning string
	}{
		{"openai_responses.sse", `Hi there! "é"`, ""},
		{"openai_responses_tools.sse", "", "**Checking the weather**\n\nThe user asks about Paris."},
		{"anthropic_messages.sse", "Hello! é", ""},
		{"anthropic_thinking_tools.sse", "Let me check.", "I need the weather in San Francisco."},
	}
	files := streamFiles(t)
	for _, tt := range tests {
		var p Parser
		p.Feed(files[tt.file])
		var answer, reasoning []byte
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			var err error
			if _, answer, reasoning, err = DecodeAPIText(fileAPI(tt.file), ev.Data, answer, reasoning); err != nil {
				t.Fatalf("%s: %v", tt.file, err)
			}
		}
		if string(answer) != tt.answer || string(reasoning) != tt.reasoning {
			t.Errorf("%s: text %q, reasoning %q; want %q, %q", tt.file, answer, reasoning, tt.answer, tt.reasoning)
		}
	}
}

func TestDecodeAPITypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api, in, member string
	}{
		{APIResponses, `{"type":"response.output_text.delta","delta":5}`, "delta"},
		{APIResponses, `{"type":7}`, "type"},
		{APIResponses, `{"response":{"usage":{"input_tokens":"9"}}}`, "response.usage.input_tokens"},
		{APIResponses, `{"output":[{"type":"message","content":[{"type":"output_text","text":[]}]}]}`, "output[].content[].text"},
		{APIResponses, `{"response":{"incomplete_details":{"reason":1}}}`, "response.incomplete_details.reason"},
		{APIMessages, `{"type":"content_block_delta","delta":{"text":1}}`, "delta.text"},
		{APIMessages, `{"type":"message_start","message":{"usage":{"input_tokens":true}}}`, "message.usage.input_tokens"},
		{APIMessages, `{"content":"hi"}`, "content"},
		{APIMessages, `{"delta":{"stop_reason":{}}}`, "delta.stop_reason"},
		{APIEmbeddings, `{"data":[{"embedding":1.5}]}`, "data[].embedding"},
		{APIEmbeddings, `{"data":{}}`, "data"},
		{APIRerank, `{"results":[{"relevance_score":"0.5"}]}`, "results[].relevance_score"},
		{APIRerank, `{"results":[1]}`, "results[]"},
		{APIRerank, `{"results":{"index":0}}`, "results"},
		{APIRerank, `{"usage":{"total_tokens":"9"}}`, "usage.total_tokens"},
		{APIScore, `{"data":[{"score":true}]}`, "data[].score"},
		{APIScore, `{"data":"x"}`, "data"},
	}
	for _, tt := range tests {
		_, err := DecodeAPI(tt.api, []byte(tt.in))
		var te *TypeError
		if !errors.As(err, &te) || te.Member != tt.member {
			t.Errorf("DecodeAPI(%s, %s) = %v; want a type error of %s", tt.api, tt.in, err, tt.member)
		}
		checkDecodeAPI(t, tt.api, []byte(tt.in))
	}
}

// TestDecodeAPIAllocs is not parallel: AllocsPerRun forbids it.
func TestDecodeAPIAllocs(t *testing.T) {
	tests := []struct{ api, in string }{
		{APIResponses, `{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":" token","logprobs":[]}`},
		{APIResponses, `{"type":"response.reasoning_text.delta","item_id":"rs_1","delta":"a\n\"b\""}`},
		{APIMessages, `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" token"}}`},
		{APIMessages, `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" hm"}}`},
	}
	for _, tt := range tests {
		data := []byte(tt.in)
		answer, reasoning := make([]byte, 0, 256), make([]byte, 0, 256)
		allocs := testing.AllocsPerRun(100, func() {
			_, answer, reasoning, _ = DecodeAPIText(tt.api, data, answer[:0], reasoning[:0])
		})
		if allocs != 0 {
			t.Errorf("%s %s: DecodeAPIText allocates %v times with room in its buffers", tt.api, tt.in, allocs)
		}
		if len(answer)+len(reasoning) == 0 {
			t.Errorf("%s %s: no text decoded", tt.api, tt.in)
		}
	}
}

// checkDecodeAPI compares DecodeAPI and DecodeAPIText on b with their
// reference, for api.
func checkDecodeAPI(t *testing.T, api string, b []byte) {
	t.Helper()
	got, err := DecodeAPI(api, b)
	want, wantA, wantR, rerr := refDecodeAPIText(api, b)
	if (err == nil) != (rerr == nil) {
		if err != nil && err.Error() == "decoding chunk: JSON nested too deeply" {
			return
		}
		t.Fatalf("DecodeAPI(%s, %q) error %v, reference error %v", api, b, err, rerr)
	}
	if got != want {
		t.Fatalf("DecodeAPI(%s, %q)\n = %+v\nreference %+v", api, b, got, want)
	}
	tin, answer, reasoning, terr := DecodeAPIText(api, b, []byte("A"), []byte("R"))
	if (terr == nil) != (err == nil) || tin != got {
		t.Fatalf("DecodeAPIText(%s, %q) = %+v, %v; DecodeAPI %+v, %v", api, b, tin, terr, got, err)
	}
	if err == nil && (string(answer) != "A"+wantA || string(reasoning) != "R"+wantR) {
		t.Fatalf("DecodeAPIText(%s, %q) text %q, reasoning %q; reference %q, %q", api, b, answer[1:], reasoning[1:], wantA, wantR)
	}
	if err != nil && (string(answer) != "A" || string(reasoning) != "R") {
		t.Fatalf("DecodeAPIText(%s, %q) failed with %q, %q: want the buffers as passed", api, b, answer, reasoning)
	}
	checkDecodeCalls(t, api, b, tin, answer, reasoning, terr)
}

// checkDecodeCalls checks that DecodeCalls returns what DecodeAPIText
// returned for b (info, answer and reasoning after "A" and "R", error)
// and keeps calls within their bounds.
func checkDecodeCalls(t *testing.T, api string, b []byte, info Info, answer, reasoning []byte, err error) {
	t.Helper()
	var calls Calls
	got, a, r, cerr := DecodeCalls(api, b, []byte("A"), []byte("R"), &calls)
	if (cerr == nil) != (err == nil) || got != info || string(a) != string(answer) || string(r) != string(reasoning) {
		t.Fatalf("DecodeCalls(%s, %q) = %+v, %q, %q, %v; DecodeAPIText %+v, %q, %q, %v", api, b, got, a, r, cerr, info, answer, reasoning, err)
	}
	n := 0
	for _, c := range calls.List() {
		n += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	if calls.Len() > MaxCalls || n > MaxCallBytes {
		t.Fatalf("DecodeCalls(%s, %q) kept %d calls of %d bytes", api, b, calls.Len(), n)
	}
}
