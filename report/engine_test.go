package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"surge/bundle/scrape"
	"surge/metrics"
)

// histogramScrape is one scrape at atUS holding the histogram family with
// upper bounds le (seconds; +Inf added), cumulative counts cum (the last
// is the +Inf bucket's) and sum.
func histogramScrape(t *testing.T, atUS int64, family string, le, cum []float64, sum string) scrape.Scrape {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# TYPE %s histogram\n", family)
	for i, l := range le {
		fmt.Fprintf(&b, "%s_bucket{le=\"%v\"} %v\n", family, l, cum[i])
	}
	n := cum[len(cum)-1]
	fmt.Fprintf(&b, "%s_bucket{le=\"+Inf\"} %v\n%s_sum %s\n%s_count %v\n", family, n, family, sum, family, n)
	samples, err := scrape.Parse([]byte(b.String()), "text/plain; version=0.0.4", nil)
	if err != nil {
		t.Fatal(err)
	}
	return scrape.Scrape{AtUS: atUS, Samples: samples}
}

// clientMetric is a client distribution with the given mean and p50, p90,
// p99, in µs.
func clientMetric(name string, mean, p50, p90, p99 float64) metrics.Metric {
	return metrics.Metric{Name: name, Unit: metrics.UnitUS, N: 100, Mean: mean, Max: p99,
		Percentiles: []metrics.Percentile{{P: 50, Value: p50}, {P: 90, Value: p90}, {P: 99, Value: p99}}}
}

// TestEngineTable checks the rows computed from the server's histograms:
// the exact mean beside interpolated quantiles, a quantile in the highest
// bucket with observations shown as that bucket's range, a gap narrower
// than its bucket not measurable.
func TestEngineTable(t *testing.T) {
	t.Parallel()
	const (
		itl  = "vllm:inter_token_latency_seconds"
		e2e  = "vllm:e2e_request_latency_seconds"
		ttft = "vllm:time_to_first_token_seconds"
	)
	itlLE := []float64{0.01, 0.025, 0.05, 0.075, 0.1}
	e2eLE := []float64{1, 2.5, 5, 10, 15, 20, 30}
	ttftLE := []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06}
	tests := []struct {
		name    string
		scrapes []scrape.Scrape
		client  metrics.Latency
		want    string // the text cells: mean engine, client, gap, then p50 and p99 each engine, client, gap
		reason  string
	}{
		{"exact ITL", []scrape.Scrape{
			histogramScrape(t, 0, itl, itlLE, []float64{0, 0, 0, 0, 0, 0}, "0"),
			histogramScrape(t, 1e6, itl, itlLE, []float64{100, 100, 100, 100, 100, 100}, "1"),
		}, metrics.Latency{ITL: clientMetric("itl", 10_200, 10_150, 10_400, 10_900)},
			"10.0 10.2 0.200 | 0–10.0 10.2 not measurable | 0–10.0 10.9 not measurable",
			"llm-d-inference-sim's exact 10 ms lands in (0, 10 ms]: the mean says 10.0, the median is only known to lie in the bucket, not 5.00"},
		{"E2E past the client's max", []scrape.Scrape{
			histogramScrape(t, 0, e2e, e2eLE, []float64{0, 0, 0, 0, 0, 0, 0, 0}, "0"),
			histogramScrape(t, 1e6, e2e, e2eLE, []float64{0, 0, 0, 90, 100, 100, 100, 100}, "850"),
		}, metrics.Latency{E2E: clientMetric("e2e", 8_600_000, 8_000_000, 9_900_000, 12_700_000)},
			"8,500 8,600 100 | 7,778 8,000 not measurable | 10,000–15,000 12,700 not measurable",
			"p99 interpolates to 14,500 ms, above every observation: shown as the bucket (10 s, 15 s]"},
		{"measurable TTFT gap", []scrape.Scrape{
			histogramScrape(t, 0, ttft, ttftLE, []float64{0, 0, 0, 0, 0, 0, 0}, "0"),
			histogramScrape(t, 1e6, ttft, ttftLE, []float64{0, 0, 0, 10, 60, 98, 100}, "3"),
		}, metrics.Latency{TTFT: clientMetric("ttft", 100_000, 95_000, 110_000, 180_000)},
			"30.0 100 70.0 | 36.0 95.0 59.0 | > 60.0 180 not measurable",
			"a gap wider than the bucket is a measurement; a rank in the +Inf bucket is only a lower bound"},
		{"NaN sum", []scrape.Scrape{
			histogramScrape(t, 0, ttft, ttftLE, []float64{0, 0, 0, 10, 60, 100, 100}, "NaN"),
		}, metrics.Latency{TTFT: clientMetric("ttft", 100_000, 95_000, 110_000, 180_000)},
			"— — — | 36.0 95.0 59.0 | 40.0–60.0 180 120",
			"a sum that is not a number gives no mean; the quantiles stand"},
		{"no client values", []scrape.Scrape{
			histogramScrape(t, 0, ttft, ttftLE, []float64{0, 0, 0, 10, 60, 100, 100}, "3"),
		}, metrics.Latency{},
			"30.0 — — | 36.0 — — | 40.0–60.0 — —",
			"the client measured nothing to set beside"},
		{"no observations", []scrape.Scrape{
			histogramScrape(t, 0, ttft, ttftLE, []float64{0, 0, 0, 10, 60, 100, 100}, "3"),
			histogramScrape(t, 1e6, ttft, ttftLE, []float64{0, 0, 0, 10, 60, 100, 100}, "3"),
		}, metrics.Latency{TTFT: clientMetric("ttft", 100_000, 95_000, 110_000, 180_000)},
			"",
			"no row for a window without observations"},
	}
	for _, tt := range tests {
		s := &metrics.Summary{Window: metrics.Window{StartUS: 0, EndUS: 1e6}}
		s.All.Latency = tt.client
		rows := EngineTable(&scrape.Series{Scrapes: tt.scrapes}, s)
		var got []string
		for i := range rows {
			cells := rows[i].engineCells(50, 99)
			got = append(got, strings.Join(cells[:3], " "), strings.Join(cells[3:6], " "), strings.Join(cells[6:], " "))
		}
		if g := strings.Join(got, " | "); g != tt.want {
			t.Errorf("%s: %q, want %q (%s)", tt.name, g, tt.want, tt.reason)
		}
	}
}

// TestEngineTableRenderings: text, HTML, JSON and CSV show the same rows.
func TestEngineTableRenderings(t *testing.T) {
	t.Parallel()
	const itl = "vllm:inter_token_latency_seconds"
	le := []float64{0.01, 0.025, 0.05}
	series := &scrape.Series{Scrapes: []scrape.Scrape{
		histogramScrape(t, 0, itl, le, []float64{0, 0, 0, 0}, "0"),
		histogramScrape(t, 2e6, itl, le, []float64{100, 100, 100, 100}, "1"),
	}}
	s := &metrics.Summary{Window: metrics.Window{StartUS: 0, EndUS: 2e6}}
	s.All.Latency.ITL = clientMetric("itl", 10_200, 10_150, 10_400, 10_900)
	es := EngineTable(series, s)
	if len(es) != 1 {
		t.Fatalf("%d rows, want 1", len(es))
	}

	var text bytes.Buffer
	if err := EngineText(&text, es); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"engine  client", "mean    10.0    10.2", "0–10.0", "not measurable", itl} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "5.00") {
		t.Errorf("text shows the interpolated 5.00 ms as a value:\n%s", text.String())
	}

	g := engineGrid(es)
	row := g.Rows[0]
	if len(row) != len(g.Head) || row[3].Text != "10.0" || row[6].Text != "0–10.0" || row[8].Text != notMeasurable {
		t.Errorf("HTML row %v under %v", row, g.Head)
	}

	var js bytes.Buffer
	if err := JSONEngine(&js, s, es); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Engine []EngineLatency `json:"engine"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Engine) != 1 || back.Engine[0].Mean == nil || back.Engine[0].Mean.EngineUS != 10_000 ||
		len(back.Engine[0].Quantiles) != 3 || back.Engine[0].Quantiles[0].Measurable || back.Engine[0].Quantiles[0].GapUS != nil ||
		!back.Engine[0].Quantiles[0].TopBucket || *back.Engine[0].Quantiles[0].BucketHiUS != 10_000 {
		t.Errorf("JSON engine table:\n%s", js.String())
	}

	var csv bytes.Buffer
	if err := CSVEngine(&csv, s, es); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(all),engine,itl,family," + itl + ",\n",
		"(all),engine,itl,n,100,\n",
		"(all),engine,itl,mean_engine,10000,us\n",
		"(all),engine,itl,p50_engine,5000,us\n",
		"(all),engine,itl,p50_bucket_hi,10000,us\n",
		"(all),engine,itl,p50_top_bucket,true,\n",
		"(all),engine,itl,p50_gap_measurable,false,\n",
	} {
		if !strings.Contains(csv.String(), want) {
			t.Errorf("CSV lacks %q", want)
		}
	}
	if strings.Contains(csv.String(), "p50_gap,") {
		t.Error("CSV gives a gap the histogram cannot measure")
	}
}
