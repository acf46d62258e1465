package scrape

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"surge/internal/redact"
)

// Defaults applied to zero fields of Config.
const (
	// DefaultInterval is the scrape period.
	DefaultInterval = time.Second
	// DefaultTimeout bounds one scrape with the default client.
	DefaultTimeout = 3 * time.Second
	// MaxBodyBytes caps an exposition body; a larger one is a failed scrape.
	MaxBodyBytes = 32 << 20
)

// Config configures Run. URL is required; every other zero field takes a
// default.
type Config struct {
	// URL is the metrics endpoint, e.g. DefaultURL(target).
	URL string
	// Interval is the scrape period; ≤ 0 means DefaultInterval.
	Interval time.Duration
	// Keep lists extra metric family names or name prefixes to record
	// beside Known ("vllm:" keeps every vLLM family).
	Keep []string
	// Client sends the scrapes; nil means a client with DefaultTimeout.
	Client *http.Client
}

// Stats counts what Run did.
type Stats struct {
	OK     int `json:"ok"`
	Failed int `json:"failed"`
	// LastError is the last failed scrape's error, "" if none failed.
	LastError string `json:"last_error,omitempty"`
	// NoEndpoint is set when the first scrape got 404: the target has no
	// metrics endpoint, and Run stopped scraping after that one line.
	NoEndpoint bool `json:"no_endpoint,omitempty"`
}

// DefaultURL returns the metrics endpoint of an OpenAI-compatible target:
// its scheme and host with path /metrics, so "http://h:8000/v1" and
// "http://h:8000" both give "http://h:8000/metrics".
func DefaultURL(target string) string {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return strings.TrimSuffix(strings.TrimSuffix(target, "/"), "/v1") + "/metrics"
	}
	u.Path, u.RawQuery, u.Fragment = "/metrics", "", ""
	return u.String()
}

// Run scrapes cfg.URL every Interval from when it is called (skipping
// ticks a slow scrape overran) until ctx ends, then once more so the file
// covers the end of the run; cancel ctx before stopping the target. It
// writes the header line and then one Scrape line per GET to w, with
// offsets in µs since start (negative for scrapes before a start still to
// come). A failed scrape (refused, timeout, non-200, unparsable body) is
// a line with an error, counted in Stats, never fatal; a 404 on the first
// scrape means the target has no metrics endpoint: Run records it, sets
// Stats.NoEndpoint and returns. Run returns an error only when cfg.URL is
// empty or writing to w fails.
func Run(ctx context.Context, cfg Config, start time.Time, w io.Writer) (Stats, error) {
	if cfg.URL == "" {
		return Stats{}, errors.New("scrape: no metrics URL")
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: DefaultTimeout}
	}
	sc := &scraper{cfg: cfg, f: newFilter(cfg.Keep), start: start, enc: json.NewEncoder(w)}
	if err := sc.enc.Encode(sc.header()); err != nil {
		return sc.stats, fmt.Errorf("writing server metrics header: %w", err)
	}
	return sc.loop(ctx)
}

// scraper is one Run's state; only Run's goroutine touches it.
type scraper struct {
	cfg   Config
	f     filter
	start time.Time
	enc   *json.Encoder
	stats Stats
}

func (sc *scraper) header() Header {
	return Header{Format: Format, Version: Version, URL: redact.URL(sc.cfg.URL),
		Start: sc.start.Format(time.RFC3339Nano), IntervalUS: sc.cfg.Interval.Microseconds(), Keep: sc.cfg.Keep}
}

// loop scrapes on one reused timer until ctx ends, then scrapes once more
// with a context that ignores ctx's cancellation (bounded by the client's
// timeout, or DefaultTimeout if it has none).
func (sc *scraper) loop(ctx context.Context) (Stats, error) {
	t0 := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for k := int64(0); ; {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sc.finalTimeout())
			defer cancel()
			_, err := sc.once(fctx, false, true)
			return sc.stats, err
		case <-timer.C:
		}
		stop, err := sc.once(ctx, k == 0, false)
		if err != nil || stop {
			return sc.stats, err
		}
		// Next tick: the first t0+k·Interval still ahead.
		k = max(k+1, int64(time.Since(t0)/sc.cfg.Interval)+1)
		timer.Reset(time.Until(t0.Add(time.Duration(k) * sc.cfg.Interval)))
	}
}

func (sc *scraper) finalTimeout() time.Duration {
	if t := sc.cfg.Client.Timeout; t > 0 {
		return t
	}
	return DefaultTimeout
}

// once scrapes, records the line and counts it. It reports stop when the
// first scrape found no endpoint, and an error when the line cannot be
// written. A loop scrape that failed because ctx ended is dropped: the
// final scrape replaces it.
func (sc *scraper) once(ctx context.Context, firstTry, final bool) (stop bool, err error) {
	line, status := sc.fetch(ctx)
	if !final && !line.OK() && ctx.Err() != nil {
		return false, nil
	}
	if line.OK() {
		sc.stats.OK++
	} else {
		sc.stats.Failed++
		sc.stats.LastError = line.Error
	}
	if firstTry && status == http.StatusNotFound {
		sc.stats.NoEndpoint, stop = true, true
	}
	if err := sc.enc.Encode(line); err != nil {
		return true, fmt.Errorf("writing server metrics: %w", err)
	}
	return stop, nil
}

// fetch GETs the endpoint once and returns its line and HTTP status
// (0 when no response came).
func (sc *scraper) fetch(ctx context.Context) (Scrape, int) {
	sent := time.Now()
	line := Scrape{AtUS: sent.Sub(sc.start).Microseconds()}
	body, ctype, status, err := sc.get(ctx)
	if err == nil {
		line.Samples, err = parse(body, ctype, sc.f)
	}
	line.TookUS = time.Since(sent).Microseconds()
	if err != nil {
		line.Error = err.Error()
	}
	return line, status
}

func (sc *scraper) get(ctx context.Context) (body []byte, ctype string, status int, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, sc.cfg.URL, nil)
	if err != nil {
		return nil, "", 0, fmt.Errorf("scraping %s: %w", redact.URL(sc.cfg.URL), err)
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4;q=1,application/openmetrics-text;q=0.5,*/*;q=0.1")
	resp, err := sc.cfg.Client.Do(req)
	if err != nil {
		return nil, "", 0, fmt.Errorf("scraping: %w", redactErr(err))
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	switch {
	case resp.StatusCode != http.StatusOK:
		err = fmt.Errorf("scraping: status %s", resp.Status)
		if resp.StatusCode == http.StatusNotFound {
			err = fmt.Errorf("scraping: status %s: no metrics endpoint", resp.Status)
		}
	case err != nil:
		err = fmt.Errorf("scraping: reading body: %w", err)
	case len(body) > MaxBodyBytes:
		err = fmt.Errorf("scraping: body larger than %d bytes", MaxBodyBytes)
	}
	return body, resp.Header.Get("Content-Type"), resp.StatusCode, err
}

// redactErr is err without the user information of the URLs it names
// (a *url.Error's URL may carry credentials), keeping the operation and
// the cause.
func redactErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %s: %w", ue.Op, redact.URL(ue.URL), redactedError{ue.Err})
	}
	return redactedError{err}
}

// redactedError is an error whose text is without the user information
// of URLs.
type redactedError struct{ err error }

func (e redactedError) Error() string { return redact.URL(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }
