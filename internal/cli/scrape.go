package cli

import (
	"time"

	"github.com/spf13/pflag"

	"surge/bundle/scrape"
	"surge/harness"
)

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

// config is the flags as the harness takes them.
func (f scrapeFlags) config() harness.Scrape {
	return harness.Scrape{Off: f.off, URL: f.url, Interval: f.interval, Keep: f.keep}
}
