package report

import (
	"encoding/json"
	"io"

	"surge/metrics"
	"surge/metrics/compare"
	"surge/sweep"
)

// TextEngine writes the text report of s (Text), then its
// engine-against-client table es (EngineText).
func TextEngine(w io.Writer, s *metrics.Summary, es []EngineLatency) error {
	return TextEngineAt(w, s, es, TextWidth)
}

// TextEngineAt is TextEngine in lines of at most cols columns (TextAt).
func TextEngineAt(w io.Writer, s *metrics.Summary, es []EngineLatency, cols int) error {
	if err := TextAt(w, s, cols); err != nil {
		return err
	}
	return EngineTextAt(w, es, cols)
}

// Renderer returns the function writing a summary with its
// engine-against-client table in format: "text" (TextEngineAt, in lines
// of cols columns), "json" (JSONEngine) or "csv" (CSVEngine); ok is false
// for any other format.
func Renderer(format string, cols int) (render func(io.Writer, *metrics.Summary, []EngineLatency) error, ok bool) {
	switch format {
	case "text":
		return func(w io.Writer, s *metrics.Summary, es []EngineLatency) error { return TextEngineAt(w, s, es, cols) }, true
	case "json":
		return JSONEngine, true
	case "csv":
		return CSVEngine, true
	}
	return nil, false
}

// CompareRenderer returns the function writing a comparison in format:
// "text" (CompareText), "markdown" (CompareMarkdown) or "json"
// (CompareJSON); ok is false for any other format.
func CompareRenderer(format string) (render func(io.Writer, *compare.Result) error, ok bool) {
	switch format {
	case "text":
		return CompareText, true
	case "markdown":
		return CompareMarkdown, true
	case "json":
		return CompareJSON, true
	}
	return nil, false
}

// SweepRenderer returns the function writing a sweep's result in format:
// "text" (SweepText) or "json" (SweepJSON); ok is false for any other.
func SweepRenderer(format string) (render func(io.Writer, *sweep.Result) error, ok bool) {
	switch format {
	case "text":
		return SweepText, true
	case "json":
		return SweepJSON, true
	}
	return nil, false
}

// SweepJSON writes a sweep's result as indented JSON, as sweep.json holds
// it.
func SweepJSON(w io.Writer, r *sweep.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
