package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"surge/client"
	"surge/driver"
)

// robustFlags set how a run meets a misbehaving server: timeouts by
// phase, the response cap, retries and TLS verification.
type robustFlags struct {
	connect, firstByte, idle time.Duration
	maxBytes                 int64
	retries                  int
	backoff, maxBackoff      time.Duration
	insecure                 bool
}

func (f *robustFlags) register(fs *pflag.FlagSet) {
	fs.DurationVar(&f.connect, "connect-timeout", 0, "per request: longest wait for a connection, TLS included (0: 30 s)")
	fs.DurationVar(&f.firstByte, "first-byte-timeout", 0, "per request: longest wait from the connection to the response headers (0: none); on servers that send headers with the first token it bounds TTFT")
	fs.DurationVar(&f.idle, "idle-timeout", 0, "per request: longest gap between chunks of a response (0: none)")
	fs.Int64Var(&f.maxBytes, "max-response-bytes", client.DefaultMaxResponseBytes, "per request: bytes read of a response before it ends as too_large (negative: no cap)")
	fs.IntVar(&f.retries, "retries", 0, "re-sends of a request refused with 429 or 503 or that never reached the server (0: none, the default)")
	fs.DurationVar(&f.backoff, "retry-backoff", driver.DefaultBackoff, "wait before the first re-send, doubling each time, with jitter; a Retry-After header waits longer")
	fs.DurationVar(&f.maxBackoff, "retry-max-backoff", driver.DefaultMaxBackoff, "longest wait before a re-send")
	fs.BoolVar(&f.insecure, "insecure", false, "do not verify an https:// target's certificate")
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
	cfg.MaxResponseBytes, cfg.Insecure = f.maxBytes, f.insecure
	return cfg
}

// retry is f's retry policy, its jitter seeded by seed.
func (f robustFlags) retry(seed uint64) driver.RetryPolicy {
	return driver.RetryPolicy{Max: f.retries, Backoff: f.backoff, MaxBackoff: f.maxBackoff, Seed: seed}
}
