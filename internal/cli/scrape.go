package cli

import (
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"surge/bundle"
	"surge/bundle/scrape"
	"surge/harness"
	"surge/metrics"
	"surge/report"
)

// serverMetricsFile is the scraped metrics' name in a run directory.
const serverMetricsFile = bundle.ServerMetricsFile

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

// serverView reads DIR/server_metrics.jsonl, when there is one, into the
// server's state over time and its own latencies beside the client's
// (harness.ServerView).
func serverView(dir string, sum *metrics.Summary) ([]report.ServerSample, []report.EngineLatency, error) {
	f, err := os.Open(filepath.Join(dir, serverMetricsFile))
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return harness.ServerView(f, sum)
}

// config is the flags as the harness takes them.
func (f scrapeFlags) config() harness.Scrape {
	return harness.Scrape{Off: f.off, URL: f.url, Interval: f.interval, Keep: f.keep}
}
