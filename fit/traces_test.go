package fit

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// traceDir holds the public traces (see its README.md for the known answers).
const traceDir = "/work/shared/traces"

// realTrace is the part of a real trace the fitter reads: arrival times in
// seconds from the first request, and the token counts.
type realTrace struct {
	times, in, out []float64
}

var (
	traceMu    sync.Mutex // guards traceCache
	traceCache = map[string]realTrace{}
)

// loadTrace reads a trace once per test binary (the files are read-only
// shared fixtures), skipping the test when it is missing.
func loadTrace(t *testing.T, rel string) realTrace {
	t.Helper()
	traceMu.Lock()
	defer traceMu.Unlock()
	if tr, ok := traceCache[rel]; ok {
		return tr
	}
	path := filepath.Join(traceDir, rel)
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("trace not available: %v", err)
	}
	defer f.Close()
	var tr realTrace
	if filepath.Ext(rel) == ".csv" {
		tr = readAzure(t, f)
	} else {
		tr = readMooncake(t, f)
	}
	traceCache[rel] = tr
	return tr
}

// readAzure reads TIMESTAMP,ContextTokens,GeneratedTokens rows.
func readAzure(t *testing.T, f *os.File) realTrace {
	t.Helper()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("reading azure csv: %v", err)
	}
	var tr realTrace
	var t0 time.Time
	for i, row := range rows[1:] {
		at, err := time.Parse("2006-01-02 15:04:05.9999999", row[0])
		if err != nil {
			t.Fatalf("row %d: %v", i+2, err)
		}
		if i == 0 {
			t0 = at
		}
		in, err1 := strconv.ParseFloat(row[1], 64)
		out, err2 := strconv.ParseFloat(row[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %d: bad token counts %q", i+2, row)
		}
		tr.times = append(tr.times, at.Sub(t0).Seconds())
		tr.in, tr.out = append(tr.in, in), append(tr.out, out)
	}
	return tr
}

// readMooncake reads JSONL rows with timestamp (ms), input_length and
// output_length.
func readMooncake(t *testing.T, f *os.File) realTrace {
	t.Helper()
	var tr realTrace
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var row struct {
			Timestamp float64 `json:"timestamp"`
			In        float64 `json:"input_length"`
			Out       float64 `json:"output_length"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("reading mooncake jsonl: %v", err)
		}
		tr.times = append(tr.times, row.Timestamp/1000)
		tr.in, tr.out = append(tr.in, row.In), append(tr.out, row.Out)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading mooncake jsonl: %v", err)
	}
	return tr
}
