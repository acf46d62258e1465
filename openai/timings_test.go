package openai

import "testing"

// TestDecodeTimingsAllocs is not parallel: AllocsPerRun forbids it.
func TestDecodeTimingsAllocs(t *testing.T) {
	tests := []struct {
		in     string
		reason string
	}{
		{`{"choices":[],"usage":{"prompt_tokens":64,"completion_tokens":32,"total_tokens":96,"prompt_tokens_details":{"cached_tokens":48}},"surge_timings":{"queued_ms":0.125,"ttft_ms":12.345678,"e2e_ms":340.75}}`,
			"surge engine final chunk"},
		{`{"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"usage":{"completion_tokens":3,"prompt_tokens":11,"total_tokens":14},"timings":{"cache_n":0,"prompt_n":11,"prompt_ms":21.3,"prompt_per_token_ms":1.936,"predicted_n":3,"predicted_ms":30.1,"predicted_per_second":99.7}}`,
			"llama-server final chunk"},
	}
	for _, tt := range tests {
		data := []byte(tt.in)
		var in Info
		allocs := testing.AllocsPerRun(100, func() { in, _ = Decode(data) })
		if allocs != 0 {
			t.Errorf("%s: Decode allocates %v times", tt.reason, allocs)
		}
		if !in.HasSurgeTimings && !in.HasTimings {
			t.Errorf("%s: no timings decoded: %+v", tt.reason, in)
		}
	}
}
