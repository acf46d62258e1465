package report

import (
	"encoding/json"
	"fmt"
	"io"

	"surge/metrics"
)

// Format is the report format version written in JSON reports.
const Format = 1

// JSON writes s as one indented JSON object: the summary's fields (see
// metrics.Summary; times in microseconds) with "surge_report": Format.
func JSON(w io.Writer, s *metrics.Summary) error { return JSONEngine(w, s, nil) }

// JSONEngine writes s as JSON does, with the engine-against-client table
// es (see EngineLatency) under "engine" when it is not empty.
func JSONEngine(w io.Writer, s *metrics.Summary, es []EngineLatency) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	v := struct {
		Format int `json:"surge_report"`
		*metrics.Summary
		Engine []EngineLatency `json:"engine,omitempty"`
	}{Format, s, es}
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing JSON report: %w", err)
	}
	return nil
}
