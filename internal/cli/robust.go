package cli

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"surge/client"
	"surge/driver"
)

// robustFlags set how a run meets a misbehaving server: timeouts by
// phase, the response cap, retries, TLS verification and extra headers.
// They reach every request a run makes: inference, the /v1/models probe
// and the metrics scrape (client.HTTPClient), with the proxy of the
// environment as net/http reads it (HTTP_PROXY, HTTPS_PROXY, NO_PROXY).
type robustFlags struct {
	connect, firstByte, idle time.Duration
	maxBytes                 int64
	maxEvent                 int
	retries                  int
	backoff, maxBackoff      time.Duration
	insecure                 bool
	headers                  []string
}

func (f *robustFlags) register(fs *pflag.FlagSet) {
	fs.DurationVar(&f.connect, "connect-timeout", 0, "per request: longest wait for a connection, TLS included (0: 30 s)")
	fs.DurationVar(&f.firstByte, "first-byte-timeout", 0, "per request: longest wait from the connection to the response headers (0: none); on servers that send headers with the first token it bounds TTFT")
	fs.DurationVar(&f.idle, "idle-timeout", 0, "per request: longest gap between chunks of a response (0: none)")
	fs.Int64Var(&f.maxBytes, "max-response-bytes", client.DefaultMaxResponseBytes, "per request: bytes read of a response before it ends as too_large (negative: no cap)")
	fs.IntVar(&f.maxEvent, "max-event-bytes", client.DefaultMaxEventBytes, "per request: bytes of one stream line or event before the request ends as too_large (negative: only --max-response-bytes)")
	fs.IntVar(&f.retries, "retries", 0, "re-sends of a request refused with 429 or 503 or that never reached the server (0: none, the default)")
	fs.DurationVar(&f.backoff, "retry-backoff", driver.DefaultBackoff, "wait before the first re-send, doubling each time, with jitter; a Retry-After header waits longer")
	fs.DurationVar(&f.maxBackoff, "retry-max-backoff", driver.DefaultMaxBackoff, "longest wait before a re-send")
	fs.BoolVar(&f.insecure, "insecure", false, "do not verify an https:// target's certificate")
	fs.StringArrayVar(&f.headers, "header", nil, "an extra header for every request, 'Name: value' (repeat for more); credential headers' values (X-API-Key, Authorization…) are never printed or recorded")
}

// check refuses values out of range.
func (f robustFlags) check() error {
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"connect-timeout", f.connect}, {"first-byte-timeout", f.firstByte}, {"idle-timeout", f.idle}} {
		if t.d < 0 {
			return fmt.Errorf("--%s %v: want 0 (none) or a positive duration", t.name, t.d)
		}
	}
	if _, err := parseHeaders(f.headers); err != nil {
		return err
	}
	if f.retries < 0 {
		return fmt.Errorf("--retries %d: want 0 or more", f.retries)
	}
	if f.backoff <= 0 || f.maxBackoff < f.backoff {
		return fmt.Errorf("--retry-backoff %v, --retry-max-backoff %v: want positive waits, the first no longer than the second", f.backoff, f.maxBackoff)
	}
	return nil
}

// client sets f's client settings on cfg.
func (f robustFlags) client(cfg client.Config) client.Config {
	cfg.ConnectTimeout, cfg.FirstByteTimeout, cfg.IdleTimeout = f.connect, f.firstByte, f.idle
	cfg.MaxResponseBytes, cfg.MaxEventBytes, cfg.Insecure = f.maxBytes, f.maxEvent, f.insecure
	cfg.Header, _ = parseHeaders(f.headers) // checked
	cfg.Proxy = http.ProxyFromEnvironment
	return cfg
}

// parseHeaders reads --header values, "Name: value", refusing a value
// without a name, without its name quoted (it may be a key).
func parseHeaders(hs []string) (http.Header, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	out := http.Header{}
	for i, h := range hs {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("--header number %d: want 'Name: value', e.g. --header 'X-API-Key: ...'", i+1)
		}
		out.Add(name, strings.TrimSpace(value))
	}
	return out, nil
}

// retry is f's retry policy, its jitter seeded by seed.
func (f robustFlags) retry(seed uint64) driver.RetryPolicy {
	return driver.RetryPolicy{Max: f.retries, Backoff: f.backoff, MaxBackoff: f.maxBackoff, Seed: seed}
}
