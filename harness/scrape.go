package harness

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"surge/bundle"
	"surge/bundle/scrape"
	"surge/client"
	"surge/metrics"
	"surge/report"
)

// Scrape chooses whether and how a run scrapes its target's Prometheus
// metrics into the bundle's bundle.ServerMetricsFile.
type Scrape struct {
	Off      bool          // do not scrape
	URL      string        // the endpoint; "" means the target's /metrics
	Interval time.Duration // between scrapes; 0 means scrape.DefaultInterval
	Keep     []string      // further metric names or name prefixes to keep
}

// startScrape scrapes the metrics of the run's servers (to's default
// server, or f.URL) into DIR/server_metrics.jsonl from start until the
// returned function is called, which waits for the last scrape and says
// on log what went wrong, if anything, without credentials. The scrapes
// go through a side client with cc's options and credentials (sent to
// the main server's origin only), beside the load, never before it;
// stop returns how they went. Without a
// default server (several targets) and no URL, with Off, or without a
// directory, it does nothing.
func startScrape(ctx context.Context, log io.Writer, f Scrape, cc client.Config, to *Servers, dir string, start time.Time) (stop func() scrape.Stats, err error) {
	url := f.URL
	if url == "" && to.base != "" {
		url = scrape.DefaultURL(withoutUser(to.base))
	}
	if f.Off || url == "" || dir == "" {
		return func() scrape.Stats { return scrape.Stats{} }, nil
	}
	if f.Interval == 0 {
		f.Interval = scrape.DefaultInterval
	}
	hc, err := sideClient(cc, to.mainServer(), scrape.DefaultTimeout)
	if err != nil {
		return nil, fmt.Errorf("scraping the server's metrics: %s", to.Redact(err.Error()))
	}
	file, err := os.Create(filepath.Join(dir, bundle.ServerMetricsFile))
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", bundle.ServerMetricsFile, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var st scrape.Stats
	go func() {
		defer close(done)
		defer hc.CloseIdleConnections()
		var err error
		st, err = scrape.Run(ctx, scrape.Config{URL: url, Interval: f.Interval, Keep: f.Keep, Client: hc}, start, file)
		if msg := scrapeWarning(st, err, url); msg != "" {
			fmt.Fprintln(log, to.Redact(msg))
		}
	}()
	return func() scrape.Stats {
		cancel()
		<-done
		file.Close()
		return st
	}, nil
}

// scrapeWarning is what a run says of its scrapes of url when they did
// not all go well, or "".
func scrapeWarning(st scrape.Stats, err error, url string) string {
	switch {
	case err != nil:
		return fmt.Sprintf("surge: scraping the server's metrics: %v", err)
	case st.NoEndpoint:
		return fmt.Sprintf("surge: the target has no metrics at %s (404); --metrics-url names another, --no-scrape turns this off", url)
	case st.Failed > 0:
		return fmt.Sprintf("surge: %d of %d scrapes of %s failed, the last: %s", st.Failed, st.OK+st.Failed, url, st.LastError)
	}
	return ""
}

// ServerView reads scraped metrics (a bundle.ServerMetricsFile) into the
// server's state over time and its own latencies beside the client's
// over the summary's measurement window (report.EngineTable), adding the
// engine check to the summary's measurement and the server's
// speculative decoding to the summary. A figure the server does not
// report is flagged absent, never NaN.
func ServerView(r io.Reader, sum *metrics.Summary) ([]report.ServerSample, []report.EngineLatency, error) {
	series, err := scrape.Read(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", bundle.ServerMetricsFile, err)
	}
	var samples []report.ServerSample
	for _, st := range series.State() {
		samples = append(samples, serverSample(st))
	}
	engine := report.EngineTable(series, sum)
	if d, ok := series.SpecDecode(sum.Window.StartUS, sum.Window.EndUS); ok {
		sum.SpecDecode = &d
	}
	if sum.Measurement != nil {
		sum.Measurement.Add(metrics.EngineCheck(sum, report.EngineMeans(engine)))
	}
	return samples, engine, nil
}

// serverView is ServerView of DIR/server_metrics.jsonl, when there is
// one (without it, or without a DIR, nothing and no error).
func serverView(dir string, sum *metrics.Summary) ([]report.ServerSample, []report.EngineLatency, error) {
	if dir == "" {
		return nil, nil, nil
	}
	return serverViewIn(os.DirFS(dir), bundle.ServerMetricsFile, sum)
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
