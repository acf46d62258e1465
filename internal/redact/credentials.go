package redact

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// Authorization returns the secrets an Authorization (or
// Proxy-Authorization) header value carries, for New: the value whole,
// its credentials after the scheme ("Bearer KEY" gives KEY too), and for
// basic authentication the decoded "user:password" and the password (the
// user name alone when there is no password).
func Authorization(value string) []string {
	value = strings.TrimSpace(value)
	if value == "" {
		return nil
	}
	out := []string{value}
	scheme, cred, ok := strings.Cut(value, " ")
	if !ok {
		return out
	}
	cred = strings.TrimSpace(cred)
	out = append(out, cred)
	if !strings.EqualFold(scheme, "basic") {
		return out
	}
	dec, err := base64.StdEncoding.DecodeString(cred)
	if err != nil {
		dec, err = base64.RawStdEncoding.DecodeString(cred)
	}
	if err != nil {
		return out
	}
	user, pass, _ := strings.Cut(string(dec), ":")
	return append(out, basicForms(user, pass)...)
}

// Basic returns the secrets of basic authentication as user and pass,
// for New: "user:pass", its base64 with and without padding, and the
// password (the user name when the password is empty, since a user name
// alone may be a token). A user name beside a password is not secret and
// is not returned: it is often a word ("user", "admin") that text holds.
func Basic(user, pass string) []string {
	if user == "" && pass == "" {
		return nil
	}
	pair := user + ":" + pass
	return append(basicForms(user, pass),
		base64.StdEncoding.EncodeToString([]byte(pair)),
		base64.RawStdEncoding.EncodeToString([]byte(pair)))
}

// basicForms are the decoded forms of basic authentication.
func basicForms(user, pass string) []string {
	if pass == "" {
		return []string{user + ":", user}
	}
	return []string{user + ":" + pass, pass}
}

// Userinfo returns the secrets of the user information of the URL raw,
// for New: those of Basic, and the password as written in raw when it is
// percent-encoded there. A URL without user information has none.
func Userinfo(raw string) []string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.User == nil {
		return writtenUserinfo(raw)
	}
	pass, _ := u.User.Password()
	return append(Basic(u.User.Username(), pass), writtenUserinfo(raw)...)
}

// writtenUserinfo is the user information of raw as written, its
// password (or its user name alone) and the pair, for a URL that may not
// parse or whose password is percent-encoded.
func writtenUserinfo(raw string) []string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil
	}
	at := strings.LastIndexByte(rest[:authorityEnd(rest)], '@')
	if at < 0 {
		return nil
	}
	info := rest[:at]
	user, pass, _ := strings.Cut(info, ":")
	return append(basicForms(user, pass), info)
}

// credentialWords are the parts of a header name that make its value a
// credential: Authorization, Proxy-Authorization, X-API-Key,
// X-Auth-Token, Cookie, api-key, X-Goog-Api-Key, X-Amz-Security-Token…
var credentialWords = []string{"auth", "key", "token", "secret", "cookie", "password", "session", "signature", "credential"}

// CredentialHeader reports whether a header of this name carries a
// credential: its values are secrets (Authorization gives their forms),
// sent only to the target's origin.
func CredentialHeader(name string) bool {
	l := strings.ToLower(name)
	for _, w := range credentialWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
