package client

import (
	"encoding/base64"
	"net/url"
	"strings"

	"surge/internal/redact"
)

// authorization is the Authorization header cfg's requests carry to the
// server at base: the API key as a bearer token, else the URL's user
// information as basic authentication, else Header's own (or none).
func authorization(cfg Config, base *url.URL) string {
	switch {
	case cfg.APIKey != "":
		return "Bearer " + cfg.APIKey
	case base != nil && base.User != nil:
		pass, _ := base.User.Password()
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(base.User.Username()+":"+pass))
	}
	return ""
}

// secrets are the credentials cfg sends, in every form, for a Redactor:
// the API key, the base URL's user information, and the values of
// Header's credential headers (CredentialHeader).
func (cfg Config) secrets() []string {
	var out []string
	if cfg.APIKey != "" {
		out = append(out, redact.Authorization("Bearer "+cfg.APIKey)...)
	}
	out = append(out, redact.Userinfo(cfg.BaseURL)...)
	for name, vs := range cfg.Header {
		if !CredentialHeader(name) {
			continue
		}
		for _, v := range vs {
			out = append(out, redact.Authorization(v)...)
		}
	}
	return out
}

// credentialWords are the parts of a header name that make its value a
// credential: Authorization, Proxy-Authorization, X-API-Key,
// X-Auth-Token, Cookie, api-key, X-Goog-Api-Key, X-Amz-Security-Token…
var credentialWords = []string{"auth", "key", "token", "secret", "cookie", "password", "session", "signature", "credential"}

// CredentialHeader reports whether a header of this name carries a
// credential, so that its value is redacted wherever surge prints,
// records or renders text, and sent only to the target's origin.
func CredentialHeader(name string) bool {
	l := strings.ToLower(name)
	for _, w := range credentialWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// hasCredentials reports whether cfg sends credentials: an API key,
// user information in its base URL, or a credential header.
func (cfg Config) hasCredentials() bool {
	if cfg.APIKey != "" || len(redact.Userinfo(cfg.BaseURL)) > 0 {
		return true
	}
	for name := range cfg.Header {
		if CredentialHeader(name) {
			return true
		}
	}
	return false
}
