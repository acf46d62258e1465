package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"surge/internal/redact"
	"surge/trace"
)

// RouterConfig configures a Router.
type RouterConfig struct {
	// Config is shared by every server's Client, each with its own
	// BaseURL. Config.BaseURL, when non-empty, is the default route: the
	// server of every model Routes does not name. MaxConns sizes each
	// server's pool, not their sum.
	Config
	// Routes maps a model name, exactly as requests carry it in
	// Request.Model, to the base URL of the server that serves it.
	Routes map[string]string
}

// Router sends each request to the server of its model. It holds one
// Client per distinct base URL, so models served at one URL share a
// connection pool. It is safe for concurrent use: its routes are read-only
// after NewRouter.
type Router struct {
	byModel  map[string]*Client // model → its server's client
	fallback *Client            // the default route; nil for none
	models   []string           // the routed models, sorted, for errors
	clients  []*Client          // every distinct client once, for Close
}

// NewRouter returns a Router for cfg. It fails, naming every bad route
// but never quoting a URL whole (it may carry credentials), when a base
// URL is not one Client accepts, a model name is empty, or there is no
// route at all.
func NewRouter(cfg RouterConfig) (*Router, error) {
	r := &Router{byModel: make(map[string]*Client, len(cfg.Routes))}
	byURL := map[string]*Client{}
	client := func(base string) (*Client, error) {
		if c, ok := byURL[base]; ok {
			return c, nil
		}
		cc := cfg.Config
		cc.BaseURL = base
		c, err := New(cc)
		if err != nil {
			return nil, err
		}
		byURL[base] = c
		r.clients = append(r.clients, c)
		return c, nil
	}
	var errs []error
	for _, m := range sortedKeys(cfg.Routes) {
		if m == "" {
			errs = append(errs, errors.New("route with an empty model name"))
			continue
		}
		c, err := client(cfg.Routes[m])
		if err != nil {
			errs = append(errs, fmt.Errorf("route for model %q: %w", m, err))
			continue
		}
		r.byModel[m] = c
		r.models = append(r.models, m)
	}
	if cfg.BaseURL != "" {
		c, err := client(cfg.BaseURL)
		if err != nil {
			errs = append(errs, fmt.Errorf("default route: %w", err))
		}
		r.fallback = c
	}
	if len(cfg.Routes) == 0 && cfg.BaseURL == "" {
		errs = append(errs, errors.New("no routes: give a base URL or a server per model"))
	}
	if err := errors.Join(errs...); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// sortedKeys returns m's keys in order, so errors and routes come out the
// same way every time.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Do sends req to the server of req.Model, or to the default route when
// Routes does not name it, and returns what happened, as Client.Do does.
// A request for a model with no route and no default is not sent: its
// Result has ErrClass "http", Status 0, and an Err naming the model.
func (r *Router) Do(ctx context.Context, req *Request) *Result {
	c, ok := r.byModel[req.Model]
	if !ok {
		c = r.fallback
	}
	if c == nil {
		return &Result{ErrClass: trace.ErrHTTP, Err: fmt.Sprintf("no server for model %q: the routes serve only %s",
			req.Model, strings.Join(r.models, ", "))}
	}
	return c.Do(ctx, req)
}

// Close closes every server's idle connections. Requests in flight are
// not affected.
func (r *Router) Close() {
	for _, c := range r.clients {
		c.Close()
	}
}

// Redact returns s without the credentials of any server's client, in
// any form, and without the user information of any URL (Client.Redact).
func (r *Router) Redact(s string) string {
	for _, c := range r.clients {
		s = c.Redact(s)
	}
	return redact.URL(s)
}
