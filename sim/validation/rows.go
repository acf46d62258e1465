package validation

import (
	"encoding/json"
	"fmt"
	"os"
)

// Row is one published measurement of sim_calibration.json.
type Row struct {
	Source    string   `json:"source"`
	GPU       string   `json:"gpu"`
	GPUCount  int      `json:"gpu_count"`
	Model     string   `json:"model"`
	Precision string   `json:"precision"`
	Engine    string   `json:"engine"`
	ISL       *int     `json:"isl"`
	OSL       *int     `json:"osl"`
	LoadKind  string   `json:"load_kind"`
	LoadValue *float64 `json:"load_value"`
	Metric    string   `json:"metric"`
	Value     float64  `json:"value"`
	Unit      string   `json:"unit"`
	Notes     string   `json:"notes"`
}

// Load reads the rows of the calibration file at path.
func Load(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading calibration rows: %w", err)
	}
	var rows []Row
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("decoding calibration rows %s: %w", path, err)
	}
	return rows, nil
}
