package cli

import (
	"errors"
	"fmt"
	"net/http"
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
	if f.backoff <= 0 || f.maxBackoff <= 0 { // the policy's "default" is a value here
		return fmt.Errorf("--retry-backoff %v, --retry-max-backoff %v: want positive waits", f.backoff, f.maxBackoff)
	}
	_, herr := client.ParseHeader(f.headers)
	return errors.Join(f.client(client.Config{}).Check(), f.retry(0).Check(), herr)
}

// client sets f's client settings on cfg.
func (f robustFlags) client(cfg client.Config) client.Config {
	cfg.ConnectTimeout, cfg.FirstByteTimeout, cfg.IdleTimeout = f.connect, f.firstByte, f.idle
	cfg.MaxResponseBytes, cfg.MaxEventBytes, cfg.Insecure = f.maxBytes, f.maxEvent, f.insecure
	cfg.Header, _ = client.ParseHeader(f.headers) // checked
	cfg.Proxy = http.ProxyFromEnvironment
	return cfg
}

// retry is f's retry policy, its jitter seeded by seed.
func (f robustFlags) retry(seed uint64) driver.RetryPolicy {
	return driver.RetryPolicy{Max: f.retries, Backoff: f.backoff, MaxBackoff: f.maxBackoff, Seed: seed}
}
