package redact

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// Mask is what a Redactor puts in the place of a secret.
const Mask = "[redacted]"

// A Redactor removes a fixed set of secrets from text, in every form a
// server may echo them in, and the user information of every URL (URL).
// The zero value and nil remove URLs' user information only. A Redactor
// is safe for concurrent use.
type Redactor struct {
	r *strings.Replacer // nil: no secrets
}

// New returns a Redactor of secrets, each removed as given and
// JSON-escaped (as encoding/json writes it, with and without HTML
// escaping, and with '/' escaped as "\/", as PHP and others write it).
// Empty secrets are ignored. Callers pass every form a secret is sent in:
// Authorization and Userinfo give those of a header value and of a URL.
func New(secrets ...string) *Redactor {
	var forms []string
	for _, s := range secrets {
		if s != "" {
			forms = append(forms, escapes(s)...)
		}
	}
	if len(forms) == 0 {
		return &Redactor{}
	}
	// The longest form first: at one position a Replacer takes the first
	// old string that matches, so "Bearer k" goes whole, not "k" alone.
	slices.SortFunc(forms, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	forms = slices.Compact(forms)
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Mask)
	}
	return &Redactor{r: strings.NewReplacer(pairs...)}
}

// String returns s without the secrets and without the user
// information of its URLs.
func (r *Redactor) String(s string) string {
	s = URL(s)
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}

// escapes returns s as given and in the forms JSON encoders write it.
func escapes(s string) []string {
	forms := []string{s, jsonString(s, true), jsonString(s, false)}
	for _, f := range forms[:3] {
		if strings.Contains(f, "/") {
			forms = append(forms, strings.ReplaceAll(f, "/", `\/`))
		}
	}
	return forms
}

// jsonString is s JSON-encoded, without the quotes.
func jsonString(s string, escapeHTML bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	enc.Encode(s) // a string always encodes
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}
