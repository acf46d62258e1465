package openai

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// stdJSON encodes v as encoding/json does with HTML escaping off.
func stdJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func ptr[T any](v T) *T { return &v }

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		req    Request
		reason string
	}{
		{Request{}, "empty request: every field omitted"},
		{Request{Model: "m", Messages: []Message{{Role: "user", Content: "Hi"}}, MaxTokens: 64, Stream: true,
			StreamOptions: &StreamOptions{IncludeUsage: true}}, "streaming chat"},
		{Request{Model: "m", Prompt: "Once upon", MaxTokens: 8, MinTokens: 8, IgnoreEOS: true}, "completions with vLLM extensions"},
		{Request{Model: "m", Prompt: "x", Temperature: ptr(0.7), TopP: ptr(0.95)}, "sampling settings"},
		{Request{Prompt: "x", Temperature: ptr(0.0), TopP: ptr(1.0)}, "zero temperature is sent"},
		{Request{Prompt: "x", Temperature: ptr(1e-7), TopP: ptr(1e21)}, "exponent formats"},
		{Request{Prompt: "x", Temperature: ptr(-2.5e-10)}, "negative exponent"},
		{Request{Prompt: "quote \" backslash \\ slash / tab \t nl \n cr \r bs \b ff \f nul \x00 esc \x1b del \x7f"}, "escapes"},
		{Request{Prompt: "<b>&amp;</b> stays raw without HTML escaping"}, "HTML characters"},
		{Request{Prompt: "é 日本語 🙂 \u2028 \u2029 \ufffd"}, "non-ASCII, line separators"},
		{Request{Prompt: "bad \xff utf8 \xc3 cut \xed\xa0\x80 surrogate"}, "invalid UTF-8 becomes U+FFFD"},
		{Request{Messages: []Message{{Role: "system", Content: "s"}, {Role: "user", Content: ""}}}, "several messages, empty content kept"},
		{Request{MaxTokens: -1}, "negative max_tokens is sent"},
		{Request{Model: "m", Prompt: "x", Stream: true, StreamOptions: &StreamOptions{IncludeUsage: true}, SurgeReasoningTokens: 40}, "the built-in engine's reasoning extension"},
		{Request{Model: "m", MaxTokens: 4, Temperature: ptr(0.0), Seed: ptr(0), Logprobs: true}, "a zero seed is sent, with logprobs"},
		{Request{Seed: ptr(-7)}, "negative seed"},
	}
	for _, tt := range tests {
		got := tt.req.AppendJSON(nil)
		if want := stdJSON(t, &tt.req); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.reason, got, want)
		}
	}
}

func TestAppendJSONNonFinite(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := Request{Prompt: "x", Temperature: &f, TopP: &f}
		if got, want := string(r.AppendJSON(nil)), `{"prompt":"x"}`; got != want {
			t.Errorf("temperature %v: got %s, want %s (JSON cannot carry it)", f, got, want)
		}
	}
}

func TestAppendJSONAppends(t *testing.T) {
	t.Parallel()
	buf := []byte("prefix:")
	r := Request{Model: "m"}
	if got := string(r.AppendJSON(buf)); got != `prefix:{"model":"m"}` {
		t.Errorf("got %s: AppendJSON must append to dst", got)
	}
}

func TestAppendStringRandom(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", " ", "\"", "\\", "\n", "\x00", "\x1f", "é", "日", "🙂", "\u2028", "\xff", "\xe6\x97", "abcdefgh"}
	for range 2000 {
		var sb strings.Builder
		for range r.IntN(40) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := sb.String()
		got := appendString(nil, s)
		if want := stdJSON(t, s); !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestAppendStringEveryByte(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		// Place the byte at every offset of a 16-byte run so both the
		// 8-byte fast path and the tail see it.
		for off := range 16 {
			b := []byte(strings.Repeat("x", 16))
			b[off] = byte(c)
			s := string(b)
			if got, want := appendString(nil, s), stdJSON(t, s); !bytes.Equal(got, want) {
				t.Fatalf("byte %#x at %d: got %s, want %s", c, off, got, want)
			}
		}
	}
}

func TestAppendJSONDecodes(t *testing.T) {
	t.Parallel()
	prompt := strings.Repeat("Lorem \"ipsum\"\n dolor sit amet, é 日本. ", 1000)
	r := Request{Model: "m", Messages: []Message{{Role: "user", Content: prompt}}, Stream: true}
	var back Request
	if err := json.Unmarshal(r.AppendJSON(nil), &back); err != nil {
		t.Fatal(err)
	}
	if back.Messages[0].Content != prompt || !utf8.ValidString(back.Messages[0].Content) {
		t.Error("prompt did not survive the round trip")
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api    string
		want   string
		ok     bool
		reason string
	}{
		{"chat", ChatPath, true, "chat"},
		{"", ChatPath, true, "default is chat"},
		{"completions", CompletionsPath, true, "completions"},
		{"responses", ResponsesPath, true, "responses"},
		{"messages", MessagesPath, true, "messages"},
		{"embeddings", EmbeddingsPath, true, "embeddings"},
		{"rerank", RerankPath, true, "rerank"},
		{"score", ScorePath, true, "score"},
		{"classify", "", false, "unknown"},
	}
	for _, tt := range tests {
		if got, ok := Path(tt.api); got != tt.want || ok != tt.ok {
			t.Errorf("%s: Path(%q) = %q, %v", tt.reason, tt.api, got, ok)
		}
	}
}
