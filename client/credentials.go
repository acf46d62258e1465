package client

import (
	"encoding/base64"
	"net/url"

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
// Header's credential headers (redact.CredentialHeader).
func (cfg Config) secrets() []string {
	var out []string
	if cfg.APIKey != "" {
		out = append(out, redact.Authorization("Bearer "+cfg.APIKey)...)
	}
	out = append(out, redact.Userinfo(cfg.BaseURL)...)
	for name, vs := range cfg.Header {
		if !redact.CredentialHeader(name) {
			continue
		}
		for _, v := range vs {
			out = append(out, redact.Authorization(v)...)
		}
	}
	return out
}

// hasCredentials reports whether cfg sends credentials: an API key,
// user information in its base URL, or a credential header.
func (cfg Config) hasCredentials() bool {
	if cfg.APIKey != "" || len(redact.Userinfo(cfg.BaseURL)) > 0 {
		return true
	}
	for name := range cfg.Header {
		if redact.CredentialHeader(name) {
			return true
		}
	}
	return false
}
