package report

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"surge/metrics"
	"surge/metrics/compare"
	"surge/sweep"
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
			render, ok := Renderer(tt.format, TextWidth)
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

// TestSweepRenderer: a sweep reports as text or as the JSON sweep.json
// holds, and nothing else.
func TestSweepRenderer(t *testing.T) {
	t.Parallel()
	res := &sweep.Result{Spec: "s.yaml", Mode: sweep.Rate, MaxPassing: -1}
	for format, want := range map[string]func(io.Writer, *sweep.Result) error{"text": SweepText, "json": SweepJSON} {
		render, ok := SweepRenderer(format)
		if !ok {
			t.Fatalf("SweepRenderer(%q) refused", format)
		}
		var got, exp bytes.Buffer
		if err := render(&got, res); err != nil {
			t.Fatal(err)
		}
		if err := want(&exp, res); err != nil {
			t.Fatal(err)
		}
		if got.String() != exp.String() {
			t.Errorf("%s: renders differently from its function", format)
		}
	}
	if _, ok := SweepRenderer("csv"); ok {
		t.Error("SweepRenderer(csv) accepted")
	}
	var b bytes.Buffer
	if err := SweepJSON(&b, res); err != nil || !strings.Contains(b.String(), "\n  \"spec\": \"s.yaml\"") {
		t.Errorf("SweepJSON: %v, %q", err, b.String())
	}
}
