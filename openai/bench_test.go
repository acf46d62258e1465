package openai

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// prompt100k is about 100k tokens of English-like text (4 bytes a token)
// with the quotes and newlines a real prompt has.
var prompt100k = strings.Repeat("The quick brown fox said \"jump\" over the lazy dog.\n", 400_000/52)

func BenchmarkAppendJSON100k(b *testing.B) {
	r := Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Messages: []Message{{Role: "user", Content: prompt100k}},
		MaxTokens: 128, Stream: true, StreamOptions: &StreamOptions{IncludeUsage: true}}
	buf := r.AppendJSON(nil)
	b.SetBytes(int64(len(prompt100k)))
	b.ReportAllocs()
	for b.Loop() {
		buf = r.AppendJSON(buf[:0])
	}
}

// BenchmarkMarshal100k is encoding/json on the same request, for scale.
func BenchmarkMarshal100k(b *testing.B) {
	r := Request{Model: "meta-llama/Llama-3.1-8B-Instruct", Messages: []Message{{Role: "user", Content: prompt100k}},
		MaxTokens: 128, Stream: true, StreamOptions: &StreamOptions{IncludeUsage: true}}
	b.SetBytes(int64(len(prompt100k)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(&r); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStream is n vLLM-style chat chunks, a usage chunk and [DONE].
func benchStream(n int) []byte {
	var sb strings.Builder
	sb.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}` + "\n\n")
	for i := range n {
		fmt.Fprintf(&sb, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":" tok%d"},"logprobs":null,"finish_reason":null}]}`+"\n\n", i)
	}
	sb.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[],"usage":{"prompt_tokens":100,"total_tokens":164,"completion_tokens":64}}` + "\n\ndata: [DONE]\n\n")
	return []byte(sb.String())
}

// BenchmarkParseAndDecode measures the client's per-event work: SSE
// parsing of reads of up to 64 KB, then Decode of every event.
func BenchmarkParseAndDecode(b *testing.B) {
	s := []byte(strings.Repeat(string(benchStream(64)), 64))
	events := 0
	var p Parser
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		p.Reset()
		for rest := s; len(rest) > 0; {
			n := min(64<<10, len(rest))
			p.Feed(rest[:n])
			rest = rest[n:]
			for ev, ok := p.Next(); ok; ev, ok = p.Next() {
				events++
				if ev.Done() {
					continue
				}
				if _, err := Decode(ev.Data); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkDecodeChunk is Decode of one content chunk.
func BenchmarkDecodeChunk(b *testing.B) {
	c := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":" token"},"logprobs":null,"finish_reason":null}]}`)
	b.SetBytes(int64(len(c)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalChunk is encoding/json on the same chunk, for scale.
func BenchmarkUnmarshalChunk(b *testing.B) {
	c := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":" token"},"logprobs":null,"finish_reason":null}]}`)
	b.SetBytes(int64(len(c)))
	b.ReportAllocs()
	for b.Loop() {
		var ch Chunk
		if err := json.Unmarshal(c, &ch); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendJSONPlain100k is AppendJSON of a prompt without escapes.
func BenchmarkAppendJSONPlain100k(b *testing.B) {
	p := strings.Repeat("The quick brown fox jumps over the lazy dog, again and again. ", 400_000/62)
	r := Request{Model: "m", Messages: []Message{{Role: "user", Content: p}}}
	buf := r.AppendJSON(nil)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		buf = r.AppendJSON(buf[:0])
	}
}

// BenchmarkAppendJSONCJK100k is AppendJSON of a prompt in Chinese.
func BenchmarkAppendJSONCJK100k(b *testing.B) {
	p := strings.Repeat("敏捷的棕色狐狸跳过了懒狗。", 400_000/39)
	r := Request{Model: "m", Messages: []Message{{Role: "user", Content: p}}}
	buf := r.AppendJSON(nil)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		buf = r.AppendJSON(buf[:0])
	}
}

// BenchmarkDecodeTextChunk is DecodeText of the chunk of
// BenchmarkDecodeChunk, into reused buffers.
func BenchmarkDecodeTextChunk(b *testing.B) {
	c := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":" token"},"logprobs":null,"finish_reason":null}]}`)
	answer, reasoning := make([]byte, 0, 64), make([]byte, 0, 64)
	b.SetBytes(int64(len(c)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if _, answer, reasoning, err = DecodeText(c, answer[:0], reasoning[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
