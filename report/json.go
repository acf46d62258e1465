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
func JSON(w io.Writer, s *metrics.Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	v := struct {
		Format int `json:"surge_report"`
		*metrics.Summary
	}{Format, s}
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing JSON report: %w", err)
	}
	return nil
}
