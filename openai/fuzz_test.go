package openai

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// FuzzSSE feeds arbitrary bytes to the parser whole, byte by byte and in
// random pieces: it must not panic, every split must give the same events,
// and Decode must agree with its encoding/json reference on every event
// (FuzzDecodeAPI checks the other APIs' decoders on every event of the
// test streams and more).
func FuzzSSE(f *testing.F) {
	for _, b := range streamFiles(f) {
		f.Add(b, uint64(1))
	}
	f.Add([]byte("data: a\r\n\r\ndata: b\rdata: c\n\n: c\nevent: x\nid: 1\nretry: 9\ndata\n\n"), uint64(2))
	f.Add([]byte("\xEF\xBB\xBFerror: {}\r\r"), uint64(3))
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) {
		want := collect(b)
		if got := collect(bytewise(b)...); !slices.Equal(got, want) {
			t.Fatalf("byte by byte gave %q, want %q", got, want)
		}
		r := rand.New(rand.NewPCG(seed, seed))
		if got := collect(randomPieces(r, b, 1+r.IntN(32))...); !slices.Equal(got, want) {
			t.Fatalf("random pieces gave %q, want %q", got, want)
		}
		limit := 1 + int(seed%64)
		if got, want := collectLimit(limit, bytewise(b)...), collectLimit(limit, b); !slices.Equal(got, want) {
			t.Fatalf("limit %d: byte by byte gave %q, whole %q", limit, got, want)
		}
		var p Parser
		p.Feed(b)
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			checkDecode(t, ev.Data)
		}
	})
}

// FuzzDecode checks Decode and DecodeText against their references on
// arbitrary input.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"choices":[{"delta":{"content":"a","reasoning":"b","tool_calls":[{}]},"finish_reason":"stop","text":"x"}],"usage":{"prompt_tokens":1e2,"completion_tokens":-3}}`))
	f.Add([]byte(`{"error":{"message":"m\u00e9"},"object":"error","message":"x"}`))
	f.Add([]byte(`{"error":[1,{"a":null}],"usage":null}`))
	f.Add([]byte(`{"choices":[{"delta":{"content":"\ud83d\ude00\ud800\n\"\/\u0000","reasoning_content":"\\\t"},"index":0}]}`))
	f.Add([]byte("{\"choices\":[{\"index\":1,\"delta\":{\"content\":\"x\"}},{\"message\":{\"reasoning\":\"\xff\",\"reasoning_content\":\"y\"},\"text\":\"\\udc00\"}]}"))
	f.Fuzz(func(t *testing.T, b []byte) { checkDecode(t, b) })
}

// FuzzDecodeAPI checks DecodeAPI and DecodeAPIText for each API that has
// a shape of its own (responses, messages, embeddings, rerank, score) against their
// encoding/json reference on arbitrary input, seeded with every event of
// the test streams and the test bodies.
func FuzzDecodeAPI(f *testing.F) {
	for _, b := range streamFiles(f) {
		var p Parser
		p.Feed(b)
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			f.Add(bytes.Clone(ev.Data))
		}
	}
	for _, name := range []string{"openai_response.json", "anthropic_message.json", "openai_embeddings.json", "llmd_embeddings.json",
		"vllm_rerank.json", "cohere_rerank.json", "vllm_score.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"type":"response.output_text.delta","delta":"a\u00e9","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"function_call"}],"usage":{"input_tokens":3,"input_tokens_details":{"cached_tokens":1},"output_tokens_details":null},"error":{"message":"x"}}}`))
	f.Add([]byte(`{"status":"completed","output":[{"type":"reasoning","content":[{"type":"reasoning_text","text":"r"}],"summary":[{"type":"summary_text","text":"s"}]},{"type":"message","content":[{"type":"refusal","refusal":"no","text":"t"}]}],"surge_timings":{"ttft_ms":1}}`))
	f.Add([]byte(`{"type":"message_start","message":{"content":[{"type":"tool_use","text":"t"}],"stop_reason":"tool_use","usage":{"input_tokens":1,"cache_read_input_tokens":2,"cache_creation_input_tokens":3,"output_tokens":4}}}`))
	f.Add([]byte(`{"type":"content_block_delta","delta":{"thinking":"h","partial_json":"{","stop_reason":"end_turn","text":"x"},"content_block":{"type":"text","thinking":""}}`))
	f.Add([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"message":"m"}`))
	f.Add([]byte(`{"object":"list","data":[{"embedding":[1,2]},{"embedding":"AAAA"},{"embedding":null},null],"usage":{"prompt_tokens":2}}`))
	f.Add([]byte(`{"results":[{"relevance_score":0.5,"document":{"text":"d"}},{"relevance_score":null},null],"usage":{"total_tokens":9},"data":[{"score":1}]}`))
	f.Add([]byte(`{"object":"error","message":"m","data":[{"index":0,"object":"score","score":-1e400}],"usage":{"prompt_tokens":0,"total_tokens":4}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, api := range []string{APIResponses, APIMessages, APIEmbeddings, APIRerank, APIScore} {
			checkDecodeAPI(t, api, b)
		}
	})
}

// checkDecode compares Decode with refDecode on b, and DecodeText with
// Decode and refText.
func checkDecode(t *testing.T, b []byte) {
	got, err := Decode(b)
	checkDecodeText(t, b, got, err)
	want, rerr := refDecode(b)
	// With a member named twice the reference keeps the last value, as
	// encoding/json does, where Decode refuses any occurrence of a wrong
	// type: neither errors nor values need agree then.
	if (err == nil) != (rerr == nil) && !hasDuplicateKeys(b) {
		if rerr == nil && len(b) > 0 && err != nil && err.Error() == "decoding chunk: JSON nested too deeply" {
			return
		}
		t.Fatalf("Decode(%q) error %v, reference error %v", b, err, rerr)
	}
	if err == nil && got != want && !hasDuplicateKeys(b) {
		t.Fatalf("Decode(%q)\n = %+v\nreference %+v", b, got, want)
	}
}
