package harness

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"surge/internal/redact"
)

// target is surge run's --target parsed: one base URL for every request,
// or routes from keys of the workload to base URLs:
//
//	--target http://h:8000
//	--target llama=http://h1:8000,qwen=http://h2:8000,*=http://h3:8000
//
// A key is a model name exactly as the workload's requests carry it (after
// --model), or a client name, meaning the models that client's requests
// carry; "*" is the server of every model no other key maps. A key that is
// a model of the workload means that model, even if a client has its name.
type target struct {
	url      string  // the one-URL form; "" when routes are given
	routes   []route // KEY=URL pairs, in the order given
	fallback string  // the *=URL default; "" for none
}

// route is one KEY=URL pair of --target.
type route struct{ key, url string }

// fallbackKey is the --target key of the default server.
const fallbackKey = "*"

// parseTarget reads --target, reporting every malformed entry, duplicate
// key or bad URL, never with credentials. An empty s is no target.
func parseTarget(s string) (target, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return target{}, nil
	}
	items := strings.Split(s, ",")
	if len(items) == 1 && !IsPair(items[0]) {
		return target{url: s}, CheckURL(s, "--target "+Redact(s))
	}
	var t target
	var errs []error
	seen := map[string]bool{}
	for _, item := range items {
		item = strings.TrimSpace(item)
		if !IsPair(item) {
			errs = append(errs, fmt.Errorf("--target entry %q: want MODEL=URL (or CLIENT=URL, or *=URL for the rest), separated by commas", Redact(item)))
			continue
		}
		key, u, _ := strings.Cut(item, "=")
		key, u = strings.TrimSpace(key), strings.TrimSpace(u)
		switch {
		case key == "":
			errs = append(errs, fmt.Errorf("--target entry =%s: no model or client before the '='", Redact(u)))
			continue
		case seen[key]:
			errs = append(errs, fmt.Errorf("--target: %s is given twice", key))
			continue
		}
		seen[key] = true
		if err := CheckURL(u, "--target "+key+"="+Redact(u)); err != nil {
			errs = append(errs, err)
			continue
		}
		if key == fallbackKey {
			t.fallback = u
		} else {
			t.routes = append(t.routes, route{key, u})
		}
	}
	return t, errors.Join(errs...)
}

// IsPair reports whether a target entry is KEY=URL rather than a bare
// URL: it has an '=' before any "://" (a URL's password or path may hold
// an '=', a model name never holds "://").
func IsPair(item string) bool {
	eq, scheme := strings.Index(item, "="), strings.Index(item, "://")
	return eq >= 0 && (scheme < 0 || eq < scheme)
}

// CheckURL reports whether u is a base URL a client accepts; what names u
// in the error, already redacted.
func CheckURL(u, what string) error {
	p, err := url.Parse(u)
	switch {
	case err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "":
		return fmt.Errorf("%s: want a URL like http://127.0.0.1:8000", what)
	case p.RawQuery != "" || p.Fragment != "":
		return fmt.Errorf("%s: a server's base URL has no query or fragment", what)
	}
	return nil
}

// workloadModels are the models a workload's requests name and the
// clients that send them.
type workloadModels struct {
	sent     []string            // models some request names, sorted
	known    map[string]bool     // those and the clients' models
	byClient map[string][]string // client name → its models, sorted
}

// modelsOf collects the models of in's requests as the driver resolves
// them: --model, else the session's, else its client's.
func modelsOf(in *Workload, override string) workloadModels {
	w := workloadModels{known: map[string]bool{}, byClient: map[string][]string{}}
	header := map[string]string{}
	add := func(client, m string) {
		if m != "" && !slices.Contains(w.byClient[client], m) {
			w.byClient[client] = append(w.byClient[client], m)
		}
	}
	for _, c := range in.Header.Clients {
		header[c.Name] = c.Model
		w.byClient[c.Name] = nil
		add(c.Name, pick(override, c.Model))
	}
	sent := map[string]bool{}
	for _, s := range in.Sessions {
		m := pick(override, s.Model, header[s.Client])
		add(s.Client, m)
		if m != "" && !sent[m] {
			sent[m] = true
			w.sent = append(w.sent, m)
		}
	}
	slices.Sort(w.sent)
	for _, ms := range w.byClient {
		slices.Sort(ms)
		for _, m := range ms {
			w.known[m] = true
		}
	}
	return w
}

// pick returns the first non-empty string.
func pick(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// resolve maps every model the workload sends to its server's base URL,
// reporting every key that is neither a model nor a client of the
// workload, every model two keys send to different servers, and every
// model left without a server when there is no default.
func (t target) resolve(w workloadModels) (map[string]string, error) {
	routes := map[string]string{}
	by := map[string]string{} // model → the key that routed it
	var errs []error
	for _, r := range t.routes {
		models, err := w.models(r.key)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, m := range models {
			if u, ok := routes[m]; ok && u != r.url {
				errs = append(errs, fmt.Errorf("--target: %s and %s send model %q to different servers", by[m], r.key, m))
				continue
			}
			routes[m], by[m] = r.url, r.key
		}
	}
	var missing []string
	for _, m := range w.sent {
		switch _, ok := routes[m]; {
		case ok:
		case t.fallback != "":
			routes[m] = t.fallback
		default:
			missing = append(missing, fmt.Sprintf("%q", m))
		}
	}
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("--target: no server for model %s: add MODEL=URL for each, or *=URL for the rest",
			strings.Join(missing, ", ")))
	}
	return routes, errors.Join(errs...)
}

// models returns the models a --target key names: the model itself, or a
// client's models.
func (w workloadModels) models(key string) ([]string, error) {
	if w.known[key] {
		return []string{key}, nil
	}
	if ms, ok := w.byClient[key]; ok {
		return ms, nil
	}
	return nil, fmt.Errorf("--target: %q is neither a model nor a client of the workload (models: %s; clients: %s)",
		key, strings.Join(slices.Sorted(maps.Keys(w.known)), ", "), strings.Join(slices.Sorted(maps.Keys(w.byClient)), ", "))
}

// targetName is the records header's target: the one base URL, or
// MODEL=URL pairs in model order, all without credentials.
func targetName(base string, routes map[string]string) string {
	if len(routes) == 0 {
		return Redact(base)
	}
	pairs := make([]string, 0, len(routes))
	for _, m := range slices.Sorted(maps.Keys(routes)) {
		pairs = append(pairs, m+"="+Redact(routes[m]))
	}
	return strings.Join(pairs, ",")
}

// Redact removes the user information of every URL in target (one URL
// or a list of them) before it is printed or recorded (redact.URL).
func Redact(target string) string { return redact.URL(target) }

// CheckTarget reports every malformed entry, duplicate key or bad URL
// of a Config's Target, as Run would, without a workload.
func CheckTarget(s string) error {
	_, err := parseTarget(s)
	return err
}
