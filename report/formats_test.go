package report

import (
	"bytes"
	"io"
	"testing"

	"surge/metrics"
	"surge/metrics/compare"
)

// TestRenderer checks that each format surge report takes renders as its
// own function does, text being the text report then the engine table,
// and that other formats are refused.
func TestRenderer(t *testing.T) {
	t.Parallel()
	s := summarize(t, "run")
	es := []EngineLatency{{Metric: "ttft", Family: "vllm:time_to_first_token_seconds", Count: 3}}
	text := func(w io.Writer, s *metrics.Summary, es []EngineLatency) error {
		if err := Text(w, s); err != nil {
			return err
		}
		return EngineText(w, es)
	}
	tests := []struct {
		format string
		want   func(io.Writer, *metrics.Summary, []EngineLatency) error // nil: refused
	}{
		{"text", text}, {"json", JSONEngine}, {"csv", CSVEngine}, {"html", nil}, {"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			render, ok := Renderer(tt.format)
			if ok != (tt.want != nil) {
				t.Fatalf("Renderer(%q) ok = %v, want %v", tt.format, ok, tt.want != nil)
			}
			if !ok {
				return
			}
			var got, want bytes.Buffer
			if err := render(&got, s, es); err != nil {
				t.Fatal(err)
			}
			if err := tt.want(&want, s, es); err != nil {
				t.Fatal(err)
			}
			if got.Len() == 0 || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("Renderer(%q) wrote %d bytes, want the %d of its format", tt.format, got.Len(), want.Len())
			}
		})
	}
}

// TestCompareRenderer checks that each format surge compare takes
// renders as its own function does, and that other formats are refused.
func TestCompareRenderer(t *testing.T) {
	t.Parallel()
	r := comparison()
	tests := []struct {
		format string
		want   func(io.Writer, *compare.Result) error // nil: refused
	}{
		{"text", CompareText}, {"markdown", CompareMarkdown}, {"json", CompareJSON}, {"csv", nil}, {"html", nil}, {"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			render, ok := CompareRenderer(tt.format)
			if ok != (tt.want != nil) {
				t.Fatalf("CompareRenderer(%q) ok = %v, want %v", tt.format, ok, tt.want != nil)
			}
			if !ok {
				return
			}
			var got, want bytes.Buffer
			if err := render(&got, r); err != nil {
				t.Fatal(err)
			}
			if err := tt.want(&want, r); err != nil {
				t.Fatal(err)
			}
			if got.Len() == 0 || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("CompareRenderer(%q) wrote %d bytes, want the %d of its format", tt.format, got.Len(), want.Len())
			}
		})
	}
}
