package scrape

import (
	"fmt"
	"math"
	"testing"
)

var inf = math.Inf(1)

func TestBucketQuantile(t *testing.T) {
	t.Parallel()
	// 10 observations: 2 in (0,1], 6 in (1,2], 2 in (2,4].
	le := []float64{1, 2, 4, inf}
	cum := []float64{2, 8, 10, 10}
	tests := []struct {
		q       float64
		le, cum []float64
		want    float64
		reason  string
	}{
		{0.5, le, cum, 1.5, "rank 5 is 3 of the 6 in (1,2]: 1 + 1·3/6"},
		{0.1, le, cum, 0.5, "rank 1 in the first bucket, whose lower bound is 0: 0 + 1·1/2"},
		{0.2, le, cum, 1, "rank 2 exactly fills the first bucket"},
		{0.9, le, cum, 3, "rank 9 is 1 of the 2 in (2,4]: 2 + 2·1/2"},
		{1, le, cum, 4, "rank 10: top of the last finite bucket"},
		{0, le, cum, 0, "q = 0: lower bound of the first non-empty bucket"},
		{0, []float64{1, 2, inf}, []float64{0, 4, 4}, 1, "q = 0 with an empty first bucket: 1, not Prometheus' NaN"},
		{0.99, []float64{1, 2, inf}, []float64{1, 2, 10}, 2, "rank in the +Inf bucket: the largest finite bound"},
		{0.5, []float64{0, 1, inf}, []float64{6, 10, 10}, 0, "rank in a first bucket with bound ≤ 0: that bound"},
		{0.5, []float64{1, 2, inf}, []float64{0, 0, 0}, math.NaN(), "no observations"},
		{0.5, []float64{1, 2}, []float64{1, 2}, math.NaN(), "no +Inf bucket"},
		{0.5, []float64{inf}, []float64{3}, math.NaN(), "only the +Inf bucket: nothing to interpolate"},
		{-0.1, le, cum, math.Inf(-1), "q < 0"},
		{1.1, le, cum, inf, "q > 1"},
		{0.5, []float64{1, 2, 4, inf}, []float64{2, 8, 7, 10}, 1.5, "a dip in cum is raised to keep it monotonic"},
	}
	for _, tt := range tests {
		got := BucketQuantile(tt.q, tt.le, tt.cum)
		if !(got == tt.want || math.IsNaN(got) && math.IsNaN(tt.want)) && math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("BucketQuantile(%v, %v, %v) = %v, want %v (%s)", tt.q, tt.le, tt.cum, got, tt.want, tt.reason)
		}
	}
}

// hist builds a histogram sample with bounds le (+Inf appended) and
// cumulative counts cum (the last is the count).
func hist(name string, labels map[string]string, le, cum []float64, sum float64) Sample {
	h := &Histogram{Sum: Float(sum), Count: Float(cum[len(cum)-1])}
	for i, l := range append(le, inf) {
		h.LE = append(h.LE, Float(l))
		h.Cum = append(h.Cum, Float(cum[i]))
	}
	return Sample{Name: name, Type: "histogram", Labels: labels, Histogram: h}
}

func TestHistogramQuantiles(t *testing.T) {
	t.Parallel()
	const f = "vllm:time_to_first_token_seconds"
	e0, e1 := map[string]string{"engine": "0"}, map[string]string{"engine": "1"}
	le := []float64{0.1, 0.2, 0.4}
	s := &Series{Scrapes: []Scrape{
		{AtUS: 0, Samples: []Sample{hist(f, e0, le, []float64{5, 5, 5, 5}, 0.2)}},
		{AtUS: 1e6, Samples: []Sample{hist(f, e0, le, []float64{5, 9, 9, 9}, 0.8), hist(f, e1, le, []float64{0, 4, 4, 4}, 0.6)}},
		{AtUS: 15e5, Error: "scraping: status 500"},
		{AtUS: 2e6, Samples: []Sample{hist(f, e0, le, []float64{5, 9, 13, 13}, 2.0), hist(f, e1, le, []float64{0, 4, 8, 8}, 1.8)}},
		// engine 0 restarted: its counts fell.
		{AtUS: 3e6, Samples: []Sample{hist(f, e0, le, []float64{0, 2, 2, 2}, 0.3), hist(f, e1, le, []float64{0, 4, 8, 8}, 1.8)}},
	}}
	tests := []struct {
		from, to         int64
		q                float64
		wantFrom, wantTo int64
		count, value     float64
		reason           string
	}{
		{0, 1e6, 0.5, 0, 1e6, 8, 0.15, "4 new in (0.1,0.2] on engine 0 and 4 on the new engine 1: all 8 there"},
		{1e6, 2e6, 0.5, 1e6, 2e6, 8, 0.3, "8 new in (0.2,0.4] summed over engines; the failed scrape between is skipped"},
		{0, 2e6, 0.5, 0, 2e6, 16, 0.2, "rank 8 of 16 exactly fills (0.1,0.2]"},
		{5e5, 12e5, 0.25, 0, 2e6, 16, 0.15, "a window between scrapes widens to the scrapes around it"},
		{2e6, 3e6, 0.5, 2e6, 3e6, 2, 0.15, "engine 0 reset contributes its new counts whole; engine 1 added none"},
		{-5, 9e6, 1, 0, 3e6, 10, 0.4, "a window past both ends uses the first and last scrapes"},
	}
	for _, tt := range tests {
		got, err := s.HistogramQuantiles(f, tt.from, tt.to, tt.q)
		if err != nil {
			t.Errorf("[%d,%d]: %v", tt.from, tt.to, err)
			continue
		}
		if got.FromUS != tt.wantFrom || got.ToUS != tt.wantTo || got.Count != tt.count ||
			len(got.Values) != 1 || math.Abs(got.Values[0]-tt.value) > 1e-12 {
			t.Errorf("[%d,%d] q%v = %+v, want scrapes %d..%d, count %v, value %v (%s)",
				tt.from, tt.to, tt.q, got, tt.wantFrom, tt.wantTo, tt.count, tt.value, tt.reason)
		}
	}
	if got, _ := s.HistogramQuantiles(f, 0, 1e6); math.Abs(got.Sum-1.2) > 1e-12 {
		t.Errorf("sum over [0,1s] = %v, want 0.8−0.2 + 0.6 = 1.2", got.Sum)
	}
	if _, err := s.HistogramQuantiles("sglang:time_to_first_token_seconds", 0, 1e6, 0.5); err == nil {
		t.Error("absent family: no error")
	}
	if _, err := s.HistogramQuantiles(f, 2, 1, 0.5); err == nil {
		t.Error("reversed window: no error")
	}
	if _, err := (&Series{}).HistogramQuantiles(f, 0, 1, 0.5); err == nil {
		t.Error("empty series: no error")
	}
}

// TestFixtureQuantiles reads one scrape of each fixture: the window is the
// histogram since the engine started, and its median must fall inside
// the bucket the cumulative counts put it in.
func TestFixtureQuantiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		metric Metric
		family string
		lo, hi float64 // the bucket holding the median
		count  float64
	}{
		{"vllm.txt", TTFT, "vllm:time_to_first_token_seconds", 0.08, 0.1, 300},
		{"vllm.txt", ITL, "vllm:inter_token_latency_seconds", 0.025, 0.05, 1200},
		{"vllm.txt", E2E, "vllm:e2e_request_latency_seconds", 5, 10, 300},
		{"sglang.txt", TTFT, "sglang:time_to_first_token_seconds", 0.6, 0.8, 4084},
		{"sglang.txt", Queue, "sglang:queue_time_seconds", 0.2, 0.5, 4084},
	}
	for _, tt := range tests {
		s := &Series{Scrapes: []Scrape{{Samples: fixture(t, tt.file)}}}
		fam := s.Family(tt.metric)
		if fam != tt.family {
			t.Errorf("%s: Family(%v) = %q, want %q", tt.file, tt.metric, fam, tt.family)
			continue
		}
		q, err := s.HistogramQuantiles(fam, 0, 0, 0.5, 0.99)
		if err != nil {
			t.Fatal(err)
		}
		if q.Count != tt.count || q.Values[0] <= tt.lo || q.Values[0] > tt.hi || q.Values[1] < q.Values[0] {
			t.Errorf("%s %s: %+v, want count %v, median in (%v,%v], p99 ≥ median", tt.file, fam, q, tt.count, tt.lo, tt.hi)
		}
	}
}

// The median of 10 observations, 2 ≤ 1 s, 6 in (1 s, 2 s] and 2 in
// (2 s, 4 s]: rank 5 is the 3rd of 6 in (1, 2], so 1 + 1·3/6.
func ExampleBucketQuantile() {
	fmt.Println(BucketQuantile(0.5, []float64{1, 2, 4, math.Inf(1)}, []float64{2, 8, 10, 10}))
	// Output: 1.5
}

func TestBucketOf(t *testing.T) {
	t.Parallel()
	// 10 observations: 2 in (0,1], 6 in (1,2], 2 in (2,4]; none above 4.
	le := []float64{1, 2, 4, 8, inf}
	cum := []float64{2, 8, 10, 10, 10}
	tests := []struct {
		q       float64
		le, cum []float64
		want    Bucket
		ok      bool
		reason  string
	}{
		{0.5, le, cum, Bucket{Lo: 1, Hi: 2}, true, "rank 5 in (1,2]"},
		{0.1, le, cum, Bucket{Lo: 0, Hi: 1}, true, "the first bucket's lower bound is 0"},
		{0.99, le, cum, Bucket{Lo: 2, Hi: 4, Top: true}, true, "(2,4] is the highest bucket with observations, though (4,8] exists"},
		{0.5, []float64{0.01, 0.025, inf}, []float64{7, 7, 7}, Bucket{Lo: 0, Hi: 0.01, Top: true}, true, "every observation in the first bucket: it is the top one"},
		{0.99, []float64{1, 2, inf}, []float64{1, 2, 10}, Bucket{Lo: 2, Hi: inf, Top: true}, true, "rank in the +Inf bucket"},
		{0.5, []float64{1, 2, inf}, []float64{0, 0, 0}, Bucket{}, false, "no observations"},
		{0.5, []float64{1, 2, inf}, []float64{1, math.NaN(), 3}, Bucket{}, false, "a NaN count"},
		{1.5, le, cum, Bucket{}, false, "q > 1"},
	}
	for _, tt := range tests {
		got, ok := BucketOf(tt.q, tt.le, tt.cum)
		if got != tt.want || ok != tt.ok {
			t.Errorf("BucketOf(%v, %v, %v) = %+v, %v; want %+v, %v (%s)", tt.q, tt.le, tt.cum, got, ok, tt.want, tt.ok, tt.reason)
		}
	}
}

// TestHistogramMean: the mean is the window's sum over its count, exact
// where the interpolated median is not (10 ms observations in vLLM's
// first ITL bucket (0, 10 ms] interpolate to 5 ms).
func TestHistogramMean(t *testing.T) {
	t.Parallel()
	const f = "vllm:inter_token_latency_seconds"
	le := []float64{0.01, 0.025}
	s := &Series{Scrapes: []Scrape{
		{AtUS: 0, Samples: []Sample{hist(f, nil, le, []float64{0, 0, 0}, 0)}},
		{AtUS: 1e6, Samples: []Sample{hist(f, nil, le, []float64{100, 100, 100}, 1.0)}},
	}}
	q, err := s.HistogramQuantiles(f, 0, 1e6, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(q.Mean()-0.01) > 1e-12 || math.Abs(q.Values[0]-0.005) > 1e-12 || q.Buckets[0] != (Bucket{Lo: 0, Hi: 0.01, Top: true}) {
		t.Errorf("mean %v, median %v in %+v; want mean 0.01, median 0.005 in the top bucket (0, 0.01]", q.Mean(), q.Values[0], q.Buckets[0])
	}
	if m := (Quantiles{}).Mean(); !math.IsNaN(m) {
		t.Errorf("mean of no observations = %v, want NaN", m)
	}
}
