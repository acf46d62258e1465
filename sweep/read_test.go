package sweep

import (
	"errors"
	"strings"
	"testing"

	"surge/trace"
)

// TestRead checks that a sweep read back gives each point the summary of
// its own records and a verdict, fills in the figures an older sweep.json
// lacks, keeps those a newer one has, and names the file or the point in
// its errors.
func TestRead(t *testing.T) {
	t.Parallel()
	records := func(dir string) (*trace.Records, error) {
		if dir == "gone" {
			return nil, errors.New("holds no records.jsonl")
		}
		return closedLoopRun(), nil
	}
	tests := []struct {
		name, data   string
		wantMeasured int
		wantVerdict  Word
		wantErr      string
	}{
		{"older sweep.json", `{"points":[{"load":2,"dir":"p1","interrupted":true}]}`, 8, WordInconclusive, ""},
		{"stale verdict", `{"points":[{"load":2,"dir":"p1","measured":5,"verdict":"pass"}]}`, 5, "", ""},
		{"bad json", `{"points":`, 0, "", "sweep.json: "},
		{"point without records", `{"points":[{"load":2,"dir":"gone"}]}`, 0, "", "sweep point gone: holds no records.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Read("sweep.json", []byte(tt.data), records)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := res.Points[0]
			if p.Summary == nil || p.Summary.All.Requests != 8 {
				t.Fatalf("summary %+v, want the 8 measured requests of the point's records", p.Summary)
			}
			if p.Measured != tt.wantMeasured {
				t.Errorf("measured %d, want %d", p.Measured, tt.wantMeasured)
			}
			if p.Verdict != tt.wantVerdict {
				t.Errorf("verdict %q, want %q (Decide's, from the figures read)", p.Verdict, tt.wantVerdict)
			}
		})
	}
}
