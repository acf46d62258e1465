package client

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"surge/internal/redact"
	"surge/openai"
)

// Config configures a Client; the zero value is usable except BaseURL.
type Config struct {
	// BaseURL is the server, e.g. http://127.0.0.1:8000; the /v1/...
	// paths are appended (a trailing /v1 is tolerated). User information
	// in the URL is sent as basic authentication unless APIKey is set.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer ..." when non-empty.
	// Credentials (the key, the URL's user information in every form
	// basic authentication sends it, the values of Header's credential
	// headers) never appear in Result.Err: they are replaced by
	// "[redacted]" there, even when a server echoes them.
	APIKey string
	// Header holds extra headers sent with every request, e.g. a
	// gateway's X-API-Key; they override none of the client's own
	// (Content-Type, User-Agent, Authorization from APIKey or the URL).
	Header http.Header
	// MaxConns is the connection pool size; the driver sets it to the
	// concurrency (0: 256).
	MaxConns int
	// HTTP2 speaks HTTP/2 only: negotiated by ALPN for https://, and
	// unencrypted with prior knowledge (h2c) for http://. The default is
	// HTTP/1.1 only.
	HTTP2 bool
	// Timeout is the per-request deadline, from the start of Do to the
	// end of the response (0: none beyond ctx).
	Timeout time.Duration

	// ConnectTimeout bounds getting a connection: from the start of Do
	// until a pooled one is handed over or a new one is dialled (and its
	// TLS handshake done). 0: none beyond the dialler's own 30 s.
	ConnectTimeout time.Duration
	// FirstByteTimeout bounds the wait for the response: from the moment
	// the connection was handed over (the request is then written) to the
	// first byte of the response headers. 0: none.
	FirstByteTimeout time.Duration
	// IdleTimeout bounds every gap in the response body: from the headers
	// to the first body byte, and between any two reads that returned
	// data. A stream that goes quiet this long ends with cause
	// "idle_timeout". 0: none.
	IdleTimeout time.Duration
	// MaxResponseBytes caps the bytes read from one response body; past
	// it the request ends with class "too_large" and the connection is
	// closed, so a runaway server costs at most this much memory and
	// bandwidth per request. 0: DefaultMaxResponseBytes; negative: no cap.
	MaxResponseBytes int64
	// MaxEventBytes caps one line, and one event, of an event stream:
	// the bytes the parser must hold until the line or event ends. Past
	// it the request ends with class "too_large" quoting the event's
	// start, so a server that never ends a line costs this much memory
	// per stream, not the response cap (or twice it, as the buffer
	// grows). 0: DefaultMaxEventBytes; negative: only the response cap.
	MaxEventBytes int
	// Insecure skips the verification of an https:// server's
	// certificate. Verification is on unless this is set.
	Insecure bool
	// Proxy chooses the proxy of each request, as http.Transport's Proxy
	// does (http.ProxyFromEnvironment: the HTTP_PROXY, HTTPS_PROXY and
	// NO_PROXY variables, never for loopback addresses); nil: no proxy.
	Proxy func(*http.Request) (*url.URL, error)
}

// DefaultMaxResponseBytes is the response cap when
// Config.MaxResponseBytes is 0: far above any real completion (a 128k-token
// stream is about 20 MB of SSE), small enough to bound a runaway response.
const DefaultMaxResponseBytes = 64 << 20

// DefaultMaxEventBytes is the event cap when Config.MaxEventBytes is 0:
// 1 MiB, a hundred times a chunk with 20 top logprobs, twice a whole
// 128k-token answer sent as one event (about 4 bytes a token); 64 streams
// stuck in endless lines then hold at most about 128 MiB, where the
// response cap alone let them hold 8 GiB.
const DefaultMaxEventBytes = 1 << 20

// eventLimit is the parser's Limit for cfg.
func eventLimit(cfg Config) int {
	switch {
	case cfg.MaxEventBytes == 0:
		return DefaultMaxEventBytes
	case cfg.MaxEventBytes < 0:
		return 0
	}
	return cfg.MaxEventBytes
}

// DefaultMaxConns is the pool size when Config.MaxConns is 0.
const DefaultMaxConns = 256

// readBufSize is the size of the buffer each response is read with. Every
// stream in flight holds one while it waits for its next read, so it sets
// the client's memory at high concurrency (10,000 streams: 40 MiB). SSE
// events are far smaller (an event longer than the buffer is carried over
// by the parser, whatever its length), and 16 KiB gained no throughput
// over 4 KiB in BenchmarkDoStream.
//
// The buffer is not returned to a pool between reads: a Read blocks with
// it until the next bytes arrive, so a stream waiting for its next token
// holds it anyway.
const readBufSize = 4 << 10

// connBufSize is the size of net/http's read and write buffers on each
// connection (4 KiB each by default); every stream in flight holds both.
// They need not be large: a request longer than the write buffer goes out
// in two writes (the buffer, then the rest straight to the connection, as
// with 4 KiB past 4 KiB), header lines longer than the read buffer are read
// in pieces, and response bodies mostly go straight into the read buffer
// above.
const connBufSize = 1 << 10

// Client sends requests to one OpenAI-compatible server and times their
// responses. It is safe for concurrent use; every Do is independent.
type Client struct {
	routes  map[string]route // API name → where and how its requests go; read-only
	secrets *redact.Redactor // what Err must never contain
	timeout time.Duration
	limits  limits    // phase timeouts and the response cap
	epoch   time.Time // origin of the probes' atomic times

	pooled *http.Transport // the connection pool
	fresh  *http.Transport // a new connection per request, for retries

	reads sync.Pool // *reader: read buffer and SSE parser
}

// reader is the per-request reading state, pooled.
type reader struct {
	buf    []byte
	parser openai.Parser
	// answer and reasoning are reused to collect text (Request.KeepText).
	answer, reasoning []byte
	calls             openai.Calls    // reused to collect tool calls (Request.KeepText)
	ticks             []time.Duration // reused to collect token times
	st                stream          // the stream being read, if any
	clock             arrivals        // stamps the reads of the response being read
}

// New returns a Client for cfg.
func New(cfg Config) (*Client, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	base, err := parseBase(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		timeout: cfg.Timeout,
		limits:  limitsOf(cfg),
		epoch:   time.Now(),
	}
	events := eventLimit(cfg)
	c.reads.New = func() any {
		return &reader{buf: make([]byte, readBufSize), ticks: make([]time.Duration, 0, firstTicks), parser: openai.Parser{Limit: events}}
	}
	c.routes = newRoutes(cfg, base)
	c.secrets = redact.New(cfg.secrets()...)
	c.pooled = newTransport(cfg)
	c.fresh = c.pooled.Clone()
	c.fresh.DisableKeepAlives = true
	return c, nil
}

// route is where the requests of one API go, and the headers they carry;
// both are shared by every request and only read.
type route struct {
	url    *url.URL
	header http.Header
}

// newRoutes returns the route of every API to the server at base: its
// path under base (the empty API is chat's) and the headers of cfg, with
// Content-Type, User-Agent, Accept-Encoding and the credentials of its
// own. Requests to the messages API also carry anthropic-version and,
// with an API key, x-api-key, as Anthropic's API reads it (servers that
// mimic it, vLLM among them, read the bearer token).
func newRoutes(cfg Config, base *url.URL) map[string]route {
	header := http.Header{"Content-Type": {"application/json"}, "User-Agent": {"surge"}, "Accept-Encoding": {acceptEncoding}}
	for name, vs := range cfg.Header {
		if header.Get(name) == "" {
			header[http.CanonicalHeaderKey(name)] = vs
		}
	}
	if auth := authorization(cfg, base); auth != "" {
		header.Set("Authorization", auth)
	}
	routes := map[string]route{}
	for _, api := range openai.APIs() {
		path, _ := openai.Path(api)
		u := *base
		u.Path = strings.TrimSuffix(base.Path, "/") + path
		u.User = nil
		h := header
		if api == openai.APIMessages {
			h = header.Clone()
			h.Set("Anthropic-Version", openai.AnthropicVersion)
			if cfg.APIKey != "" {
				h.Set("X-Api-Key", cfg.APIKey)
			}
		}
		routes[api] = route{url: &u, header: h}
	}
	routes[""] = routes[openai.APIChat]
	return routes
}

// parseBase checks and parses the base URL without ever quoting it whole in
// an error, since it may carry credentials.
func parseBase(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("base URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("parsing base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("base URL %s: scheme must be http or https", redact.URL(raw))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("base URL %s: no host", redact.URL(raw))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %s: must not have a query or fragment", redact.URL(raw))
	}
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/v1")
	u.RawPath = ""
	return u, nil
}

// newTransport builds the pooled transport: sized to the concurrency,
// cfg's proxy (none by default), no compression (bytes must be seen as
// they arrive), HTTP/1.1 or HTTP/2 only.
func newTransport(cfg Config) *http.Transport {
	n := cfg.MaxConns
	if n <= 0 {
		n = DefaultMaxConns
	}
	var protos http.Protocols
	if cfg.HTTP2 {
		protos.SetHTTP2(true)
		protos.SetUnencryptedHTTP2(true)
	} else {
		protos.SetHTTP1(true)
	}
	dial := 30 * time.Second
	if cfg.ConnectTimeout > 0 {
		dial = cfg.ConnectTimeout
	}
	dialer := &net.Dialer{Timeout: dial, KeepAlive: 30 * time.Second}
	return &http.Transport{
		DialContext:         dialStamped(dialer, !cfg.HTTP2),
		Proxy:               cfg.Proxy,
		MaxIdleConns:        n,
		MaxIdleConnsPerHost: n,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: cfg.Insecure},
		DisableCompression:  true,
		ReadBufferSize:      connBufSize,
		WriteBufferSize:     connBufSize,
		ForceAttemptHTTP2:   cfg.HTTP2,
		Protocols:           &protos,
	}
}

// Close closes idle connections. Requests in flight are not affected.
func (c *Client) Close() {
	c.pooled.CloseIdleConnections()
	c.fresh.CloseIdleConnections()
}

// Redact returns s without the client's credentials, in any form, and
// without the user information of any URL: what Result.Err is made of
// before it is returned.
func (c *Client) Redact(s string) string { return c.secrets.String(s) }
