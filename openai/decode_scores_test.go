package openai

import (
	"strings"
	"testing"
)

func TestDecodeScores(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api, in string
		want    Info
		bad     bool
		reason  string
	}{
		{APIRerank, `{"results":[{"index":0,"relevance_score":0.9},{"index":1,"relevance_score":-3e-7}],"usage":{"total_tokens":12}}`,
			Info{Scores: 2, HasUsage: true, Usage: Usage{12, 0, 12}}, false, "two results, the total as the prompt"},
		{APIRerank, `{"results":[{"index":0,"relevance_score":null},{"index":1},null]}`, Info{}, false, "results without a score count none"},
		{APIRerank, `{"results":[{"relevance_score":1,"relevance_score":2}]}`, Info{Scores: 2}, false, "a member named twice counts twice, as the reference reads it"},
		{APIRerank, `{"usage":{"prompt_tokens":5,"total_tokens":7}}`, Info{HasUsage: true, Usage: Usage{5, 0, 7}}, false, "prompt_tokens given: the total does not replace it"},
		{APIRerank, `{"object":"error","message":"The model does not support Rerank API","type":"BadRequestError","code":400}`,
			Info{IsError: true, ErrorMessage: "The model does not support Rerank API"}, false, "vLLM's error body"},
		{APIScore, `{"error":{"message":"text_1 and text_2 differ in length"}}`, Info{IsError: true, ErrorMessage: "text_1 and text_2 differ in length"}, false, "an error object"},
		{APIScore, `{"data":[{"object":"score","score":0.1}],"results":[{"relevance_score":1}]}`, Info{Scores: 1}, false, "score reads data, not results"},
		{APIRerank, `{"data":[{"score":0.1}]}`, Info{}, false, "rerank reads results, not data"},
		{APIRerank, `{"results":[{"relevance_score":0.9}]`, Info{}, true, "truncated"},
		{APIRerank, `{"results":[]} {}`, Info{}, true, "trailing data"},
		{APIScore, `[{"score":1}]`, Info{}, true, "not an object"},
		{APIScore, `{"data":[{"score":01}]}`, Info{}, true, "a bad number"},
		{APIRerank, `{"results":[` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `]}`, Info{}, true, "nested too deeply"},
		{APIScore, ``, Info{}, true, "empty"},
	}
	for _, tt := range tests {
		got, err := DecodeAPI(tt.api, []byte(tt.in))
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("%s: DecodeAPI(%s, %.60q) = %+v, %v; want %+v, error %v", tt.reason, tt.api, tt.in, got, err, tt.want, tt.bad)
		}
		checkDecodeAPI(t, tt.api, []byte(tt.in))
	}
}

// TestDecodeScoresAllocs is not parallel: AllocsPerRun forbids it.
func TestDecodeScoresAllocs(t *testing.T) {
	for api, in := range map[string]string{
		APIRerank: `{"id":"r","results":[{"index":1,"document":{"text":"d"},"relevance_score":0.9}],"usage":{"total_tokens":3}}`,
		APIScore:  `{"id":"s","object":"list","data":[{"index":0,"object":"score","score":0.5}],"usage":{"prompt_tokens":3}}`,
	} {
		data := []byte(in)
		if n := testing.AllocsPerRun(100, func() { _, _ = DecodeAPI(api, data) }); n != 0 {
			t.Errorf("DecodeAPI(%s) allocates %v times", api, n)
		}
	}
}
