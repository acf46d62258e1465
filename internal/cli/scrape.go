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

	"surge/bundle/scrape"
	"surge/metrics"
	"surge/report"
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
// over the summary's measurement window (report.EngineTable). A figure
// the server does not report is flagged absent, never NaN.
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
		samples = append(samples, serverSample(st))
	}
	engine := report.EngineTable(series, sum)
	if sum.Measurement != nil {
		sum.Measurement.Add(metrics.EngineCheck(sum, report.EngineMeans(engine)))
	}
	return samples, engine, nil
}

// serverSample is the report's view of one scrape's state: a figure that
// is NaN (no such series, or no value) is flagged absent.
func serverSample(st scrape.State) report.ServerSample {
	count := func(v float64) (int, bool) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, true
		}
		return int(math.Round(v)), false
	}
	s := report.ServerSample{AtUS: st.AtUS}
	s.Running, s.NoRunning = count(st.Running)
	s.Waiting, s.NoWaiting = count(st.Waiting)
	if s.NoKV = math.IsNaN(st.KVUsage) || math.IsInf(st.KVUsage, 0); !s.NoKV {
		s.KVCacheUsage = st.KVUsage
	}
	return s
}
