package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"surge/metrics"
	"surge/report"
	"surge/scrape"
)

// serverMetricsFile is the scraped metrics' name in a run directory.
const serverMetricsFile = "server_metrics.jsonl"

// scrapeFlags choose whether and how a run scrapes its target's metrics.
type scrapeFlags struct {
	url      string
	off      bool
	interval time.Duration
	keep     []string
}

func (f *scrapeFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.url, "metrics-url", "", "the target's Prometheus endpoint (default: the target's /metrics)")
	fs.BoolVar(&f.off, "no-scrape", false, "do not scrape the target's metrics")
	fs.DurationVar(&f.interval, "scrape-interval", scrape.DefaultInterval, "how often to scrape the target's metrics")
	fs.StringSliceVar(&f.keep, "keep-metrics", nil, "further metric names or name prefixes to keep when scraping")
}

// startScrape scrapes the metrics of the server at base into
// DIR/server_metrics.jsonl from start until the returned function is
// called, which waits for the last scrape and says on warn what went
// wrong, if anything. Without a base URL (several targets) and no
// --metrics-url, or with --no-scrape, it does nothing.
func startScrape(ctx context.Context, warn io.Writer, f scrapeFlags, base, dir string, start time.Time) (stop func(), err error) {
	url := f.url
	if url == "" && base != "" {
		url = scrape.DefaultURL(base)
	}
	if f.off || url == "" {
		return func() {}, nil
	}
	file, err := os.Create(filepath.Join(dir, serverMetricsFile))
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", serverMetricsFile, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		st, err := scrape.Run(ctx, scrape.Config{URL: url, Interval: f.interval, Keep: f.keep}, start, file)
		switch {
		case err != nil:
			fmt.Fprintf(warn, "surge: scraping the server's metrics: %v\n", err)
		case st.NoEndpoint:
			fmt.Fprintf(warn, "surge: the target has no metrics at %s (404); --metrics-url names another, --no-scrape turns this off\n", url)
		case st.Failed > 0:
			fmt.Fprintf(warn, "surge: %d of %d scrapes of %s failed, the last: %s\n", st.Failed, st.OK+st.Failed, url, st.LastError)
		}
	}()
	return func() {
		cancel()
		<-done
		file.Close()
	}, nil
}

// serverView reads DIR/server_metrics.jsonl, when there is one, into the
// server's state over time and its own latencies beside the client's
// over the summary's measurement window.
func serverView(dir string, sum *metrics.Summary) ([]report.ServerSample, []report.EngineLatency, error) {
	f, err := os.Open(filepath.Join(dir, serverMetricsFile))
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	series, err := scrape.Read(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", serverMetricsFile, err)
	}
	var samples []report.ServerSample
	for _, st := range series.State() {
		samples = append(samples, report.ServerSample{AtUS: st.AtUS, KVCacheUsage: st.KVUsage,
			Running: int(math.Round(st.Running)), Waiting: int(math.Round(st.Waiting))})
	}
	return samples, engineLatencies(series, sum), nil
}

// engineLatencies compares each engine-side histogram the server exposes
// with the client's distribution over the measurement window.
func engineLatencies(series *scrape.Series, sum *metrics.Summary) []report.EngineLatency {
	lat := &sum.All.Latency
	var out []report.EngineLatency
	for _, m := range []struct {
		name   string
		metric scrape.Metric
		client *metrics.Metric
	}{{"ttft", scrape.TTFT, &lat.TTFT}, {"itl", scrape.ITL, &lat.ITL}, {"e2e", scrape.E2E, &lat.E2E}} {
		family := series.Family(m.metric)
		if family == "" {
			continue
		}
		q, err := series.HistogramQuantiles(family, sum.Window.StartUS, sum.Window.EndUS, 0.5, 0.9, 0.99)
		if err != nil || q.Count == 0 {
			continue
		}
		e := report.EngineLatency{Metric: m.name, Family: family, Count: int(q.Count)}
		for i, p := range []float64{50, 90, 99} {
			e.Engine[i] = q.Values[i] * 1e6 // seconds → µs
			if v, ok := m.client.At(p); ok {
				e.Client[i] = v.Value
			}
		}
		out = append(out, e)
	}
	return out
}
