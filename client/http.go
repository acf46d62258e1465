package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"surge/internal/redact"
)

// auxConns is the pool of an HTTPClient: its requests are few (a probe,
// a scrape a second, parity's prompts take their own).
const auxConns = 16

// HTTPClient returns the client of surge's requests beside the
// inference ones, to the server at cfg.BaseURL: the /v1/models probe,
// the metrics scrape, parity's prompts. It applies the options the
// inference requests have: cfg's TLS settings (Insecure), Proxy,
// ConnectTimeout and FirstByteTimeout, Header, and timeout as each
// request's deadline (0: none). It speaks HTTP/1.1, or HTTP/2 where TLS
// negotiates it, whatever cfg.HTTP2 says: a metrics endpoint beside an
// h2c server need not speak h2c. cfg's credentials
// (APIKey as a bearer token, else the base URL's user information as
// basic authentication) and Header go only to requests for the base
// URL's origin (scheme, host and port), and only to requests that carry
// no Authorization of their own; the URLs given to the client should
// carry no user information. With no BaseURL, Header goes to every
// request and no credentials are added.
//
// It never follows a redirect of a request that carried credentials, nor
// one to another origin: a server cannot move a key elsewhere. A
// certificate surge does not trust fails with how to fix it.
func HTTPClient(cfg Config, timeout time.Duration) (*http.Client, error) {
	t := &auxTransport{header: http.Header{"User-Agent": {"surge"}}}
	for name, vs := range cfg.Header {
		t.header[http.CanonicalHeaderKey(name)] = vs
	}
	if cfg.BaseURL != "" {
		base, err := parseBase(cfg.BaseURL)
		if err != nil {
			return nil, err
		}
		t.origin = base
		if auth := authorization(cfg, base); auth != "" {
			t.header.Set("Authorization", auth)
		}
	}
	cfg.MaxConns, cfg.HTTP2 = auxConns, false
	tr := newTransport(cfg)
	tr.Protocols.SetHTTP2(true)
	tr.ForceAttemptHTTP2 = true
	tr.ResponseHeaderTimeout = cfg.FirstByteTimeout
	tr.DisableCompression = false
	t.next = tr
	credentials := cfg.hasCredentials()
	return &http.Client{
		Transport: t,
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			return checkRedirect(req, via, credentials)
		},
	}, nil
}

// auxTransport adds the HTTPClient's headers to the requests it may
// carry them on.
type auxTransport struct {
	next   *http.Transport
	origin *url.URL    // the target's; nil: every request's
	header http.Header // read-only
}

// RoundTrip sends a copy of req with the transport's headers when req
// goes to its origin, and says how to fix a certificate surge does not
// trust.
func (t *auxTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.origin == nil || sameOrigin(req.URL, t.origin) {
		r := req.Clone(req.Context())
		for name, vs := range t.header {
			if r.Header.Get(name) == "" {
				r.Header[name] = vs
			}
		}
		req = r
	}
	resp, err := t.next.RoundTrip(req)
	return resp, withTLSHint(err)
}

// CloseIdleConnections closes the transport's idle connections.
func (t *auxTransport) CloseIdleConnections() { t.next.CloseIdleConnections() }

// checkRedirect is an HTTPClient's redirect policy: no redirect of a
// request with credentials (the client's own, or an Authorization or user
// information of the request), none to another origin than the first
// request's, at most 10.
func checkRedirect(req *http.Request, via []*http.Request, credentials bool) error {
	first := via[0]
	to := redact.URL(req.URL.String())
	switch {
	case credentials || first.Header.Get("Authorization") != "" || first.URL.User != nil:
		return fmt.Errorf("not following the redirect to %s: the request carries credentials, which surge sends to the URL it was given only (give the URL redirected to instead)", to)
	case !sameOrigin(req.URL, first.URL):
		return fmt.Errorf("not following the redirect to %s: it leaves %s (give the URL redirected to instead)", to, origin(first.URL))
	case len(via) >= 10:
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// sameOrigin reports whether a and b have one scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return origin(a) == origin(b)
}

// origin is u's scheme, host and port, with the scheme's default port
// when u names none.
func origin(u *url.URL) string {
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
