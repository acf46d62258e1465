package cli

import (
	"fmt"
	"net/http"

	"github.com/spf13/pflag"

	"surge/client"
	"surge/driver"
)

// robustFlags are a run's flags on how a request may fail, bound onto
// the client's and the retry policy's fields, and its extra headers.
type robustFlags struct{ headers []string }

// register adds the timeouts, caps, retries, TLS and header flags.
func (f *robustFlags) register(fs *pflag.FlagSet, cc *client.Config, rp *driver.RetryPolicy) {
	fs.DurationVar(&cc.ConnectTimeout, "connect-timeout", 0, "per request: longest wait for a connection, TLS included (0: 30 s)")
	fs.DurationVar(&cc.FirstByteTimeout, "first-byte-timeout", 0, "per request: longest wait from the connection to the response headers (0: none); on servers that send headers with the first token it bounds TTFT")
	fs.DurationVar(&cc.IdleTimeout, "idle-timeout", 0, "per request: longest gap between chunks of a response (0: none)")
	fs.Int64Var(&cc.MaxResponseBytes, "max-response-bytes", client.DefaultMaxResponseBytes, "per request: bytes read of a response before it ends as too_large (negative: no cap)")
	fs.IntVar(&cc.MaxEventBytes, "max-event-bytes", client.DefaultMaxEventBytes, "per request: bytes of one stream line or event before the request ends as too_large (negative: only --max-response-bytes)")
	fs.IntVar(&rp.Max, "retries", 0, "re-sends of a request refused with 429 or 503 or that never reached the server (0: none, the default)")
	fs.DurationVar(&rp.Backoff, "retry-backoff", driver.DefaultBackoff, "wait before the first re-send, doubling each time, with jitter; a Retry-After header waits longer")
	fs.DurationVar(&rp.MaxBackoff, "retry-max-backoff", driver.DefaultMaxBackoff, "longest wait before a re-send")
	fs.BoolVar(&cc.Insecure, "insecure", false, "do not verify an https:// target's certificate")
	fs.StringArrayVar(&f.headers, "header", nil, "an extra header for every request, 'Name: value' (repeat for more); credential headers' values (X-API-Key, Authorization…) are never printed or recorded")
}

// check refuses what the flags' types let through: malformed headers,
// and a wait of 0, which the policy would take for its default.
func (f robustFlags) check(rp driver.RetryPolicy) error {
	if rp.Backoff <= 0 || rp.MaxBackoff <= 0 {
		return fmt.Errorf("--retry-backoff %v, --retry-max-backoff %v: want positive waits", rp.Backoff, rp.MaxBackoff)
	}
	_, err := client.ParseHeader(f.headers)
	return err
}

// client is cc with the headers and the environment's proxy.
func (f robustFlags) client(cc client.Config) client.Config {
	cc.Header, _ = client.ParseHeader(f.headers) // checked
	cc.Proxy = http.ProxyFromEnvironment
	return cc
}
