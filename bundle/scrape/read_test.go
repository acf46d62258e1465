package scrape

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// encode writes a header (unless it is zero) and scrapes as Run does.
func encode(t testing.TB, h Header, scrapes ...Scrape) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if h.Format != "" {
		if err := enc.Encode(h); err != nil {
			t.Fatal(err)
		}
	}
	for _, sc := range scrapes {
		if err := enc.Encode(sc); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func TestReadRoundTrip(t *testing.T) {
	t.Parallel()
	h := Header{Format: Format, Version: Version, URL: "http://h/metrics", Start: "2025-01-01T00:00:00Z", IntervalUS: 1e6}
	nan := Float(math.NaN())
	in := []Scrape{
		{AtUS: 5, TookUS: 2, Samples: fixture(t, "vllm.txt")},
		{AtUS: 6, TookUS: 1, Error: "scraping: status 500 Internal Server Error"},
		{AtUS: 9, Samples: append(fixture(t, "sglang.txt"), Sample{Name: "x", Type: "untyped", Value: &nan},
			Sample{Name: "y", Type: "summary", Summary: &Summary{Q: []Float{0.5}, V: []Float{Float(math.Inf(1))}, Sum: 1, Count: 2}})},
	}
	raw := encode(t, h, in...)
	s, err := Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Header, h) || s.Truncated || len(s.Scrapes) != 3 || len(s.OK()) != 2 {
		t.Fatalf("read back header %+v, %d scrapes (%d ok), truncated %v", s.Header, len(s.Scrapes), len(s.OK()), s.Truncated)
	}
	// Re-encoding what was read gives the same bytes: NaN and ±Inf survive.
	if again := encode(t, s.Header, s.Scrapes...); !bytes.Equal(again, raw) {
		t.Errorf("round trip changed the file:\n%s\nvs\n%s", again, raw)
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	h := `{"format":"surge-server-metrics","version":1,"url":"u","start":"s","interval_us":1}` + "\n"
	ok := `{"at_us":5,"took_us":1}` + "\n"
	tests := []struct {
		name, in  string
		wantErr   string // "" for success
		truncated bool
		scrapes   int
		reason    string
	}{
		{"headerless", ok + ok, "", false, 2, "the header is optional"},
		{"blank lines", h + "\n" + ok + "  \n", "", false, 1, "blank lines are skipped"},
		{"cut last line", h + ok + `{"at_us":7,"samp`, "", true, 1, "an interrupted run's last line is dropped and flagged"},
		{"bad middle line", h + `{"at_us":` + "\n" + ok, "line 2", false, 0, "only the last line may be cut"},
		{"unknown field", h + `{"at_us":5,"bogus":1}` + "\n", "line 2", false, 0, "unknown fields are errors"},
		{"wrong format", `{"format":"other","version":1}` + "\n", "format", false, 0, "another file's header"},
		{"newer version", `{"format":"surge-server-metrics","version":99}` + "\n", "version", false, 0, "a newer format"},
		{"backwards", h + `{"at_us":9,"took_us":1}` + "\n" + ok, "before the previous", false, 0, "time goes forward"},
		{"two payloads", h + `{"at_us":5,"samples":[{"name":"a","type":"gauge","value":1,"histogram":{"le":[],"cum":[],"sum":0,"count":0}}]}` + "\n",
			"exactly one", false, 0, "value and histogram together"},
		{"ragged histogram", h + `{"at_us":5,"samples":[{"name":"a","type":"histogram","histogram":{"le":[1,"+Inf"],"cum":[1],"sum":0,"count":1}}]}` + "\n",
			"bounds", false, 0, "le and cum must pair up"},
		{"bad float", h + `{"at_us":5,"samples":[{"name":"a","type":"gauge","value":"many"}]}` + "\n", "line 2", false, 0, "strings other than NaN/±Inf"},
	}
	for _, tt := range tests {
		s, err := Read(strings.NewReader(tt.in))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q (%s)", tt.name, err, tt.wantErr, tt.reason)
			}
			continue
		}
		if err != nil || s.Truncated != tt.truncated || len(s.Scrapes) != tt.scrapes {
			t.Errorf("%s: %v, truncated %v, %d scrapes; want truncated %v, %d (%s)", tt.name, err, s != nil && s.Truncated,
				func() int {
					if s == nil {
						return -1
					}
					return len(s.Scrapes)
				}(), tt.truncated, tt.scrapes, tt.reason)
		}
	}
}

// FuzzRead checks that Read never panics, that what it accepts can be
// re-encoded and read back to the same scrapes, and that the views run
// on it without panicking.
func FuzzRead(f *testing.F) {
	h := Header{Format: Format, Version: Version, URL: "u", Start: "s", IntervalUS: 1}
	f.Add(encode(f, h, Scrape{AtUS: 1, Samples: []Sample{
		hist("vllm:time_to_first_token_seconds", nil, []float64{0.1, 1}, []float64{1, 2, 3}, 1),
		counter("vllm:prefix_cache_hits_total", nil, 1), counter("vllm:prefix_cache_queries_total", nil, 2),
	}}, Scrape{AtUS: 2, Error: "x"}))
	f.Add([]byte(`{"at_us":1,"samples":[{"name":"n","type":"gauge","value":"NaN"}]}`))
	f.Add([]byte("\n\n{\"at_us\":-4}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		s.State()
		for _, m := range []Metric{TTFT, ITL, E2E, Queue} {
			if fam := s.Family(m); fam != "" {
				s.HistogramQuantiles(fam, math.MinInt64, math.MaxInt64, 0, 0.5, 1)
			}
		}
		again, err := Read(bytes.NewReader(encode(t, s.Header, s.Scrapes...)))
		if err != nil {
			t.Fatalf("re-reading an accepted file: %v", err)
		}
		if len(again.Scrapes) != len(s.Scrapes) {
			t.Fatalf("re-read %d scrapes, want %d", len(again.Scrapes), len(s.Scrapes))
		}
	})
}
