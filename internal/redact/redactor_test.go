package redact

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactor(t *testing.T) {
	t.Parallel()
	basic := base64.StdEncoding.EncodeToString([]byte("user:se/cr<et"))
	r := New(append(append(Userinfo("http://user:se%2Fcr%3Cet@h:1"), Authorization("Bearer sk-key/1")...), "")...)
	for _, tt := range []struct{ in, want, why string }{
		{"HTTP 401: bad key sk-key/1", "HTTP 401: bad key " + Mask, "a bearer key"},
		{"got Authorization: Bearer sk-key/1", "got Authorization: " + Mask, "the header value whole"},
		{`{"error":"key sk-key\/1"}`, `{"error":"key ` + Mask + `"}`, "a key JSON-escaped with \\/"},
		{"Basic " + basic, "Basic " + Mask, "basic credentials as base64"},
		{"Basic " + strings.TrimRight(basic, "="), "Basic " + Mask, "base64 without padding"},
		{"who: user:se/cr<et", "who: " + Mask, "the decoded pair"},
		{`{"p":"se/cr\u003cet"}`, `{"p":"` + Mask + `"}`, "the password as encoding/json escapes it"},
		{"pw se%2Fcr%3Cet", "pw " + Mask, "the password as written in the URL"},
		{"role user, token 12", "role user, token 12", "the user name beside a password is kept"},
		{"from http://user:x@h:1/v1", "from http://h:1/v1", "a URL's user information, whatever it is"},
	} {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("%s: String(%q) = %q, want %q", tt.why, tt.in, got, tt.want)
		}
	}
}

func TestRedactorZero(t *testing.T) {
	t.Parallel()
	var nilR *Redactor
	for _, r := range []*Redactor{nilR, {}, New(), New("")} {
		if got := r.String("a http://u:p@h b"); got != "a http://h b" {
			t.Errorf("%#v: got %q", r, got)
		}
	}
}

func TestAuthorization(t *testing.T) {
	t.Parallel()
	pair := base64.StdEncoding.EncodeToString([]byte("al:pw"))
	for _, tt := range []struct {
		in   string
		want []string
		why  string
	}{
		{"Bearer k", []string{"Bearer k", "k"}, "bearer"},
		{"Basic " + pair, []string{"Basic " + pair, pair, "al:pw", "pw"}, "basic, decoded"},
		{"basic dG9rOg", []string{"basic dG9rOg", "dG9rOg", "tok:", "tok"}, "basic, unpadded, no password: the user name is the token"},
		{"token123", []string{"token123"}, "no scheme"},
		{"Basic !!", []string{"Basic !!", "!!"}, "basic that is not base64"},
		{"", nil, "empty"},
	} {
		got := Authorization(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: Authorization(%q) = %q, want %q", tt.why, tt.in, got, tt.want)
		}
	}
}

// FuzzRedactor checks that a secret made of characters the mask does not
// hold never survives in any JSON encoding of any text around it.
func FuzzRedactor(f *testing.F) {
	f.Add("s3cr/t", "echo: ")
	f.Add("p\"w", "<")
	f.Fuzz(func(t *testing.T, secret, text string) {
		if secret == "" || strings.ContainsAny(secret, "[redact]") {
			return
		}
		r := New(secret)
		plain := text + secret + text
		js, _ := json.Marshal(plain)
		for _, in := range []string{plain, string(js), strings.ReplaceAll(string(js), "/", `\/`)} {
			if out := r.String(in); strings.Contains(out, secret) && strings.Contains(URL(in), secret) {
				t.Fatalf("String(%q) = %q keeps %q", in, out, secret)
			}
		}
	})
}

func TestCredentialHeader(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"Authorization": true, "X-API-Key": true, "api-key": true, "X-Auth-Token": true, "Cookie": true,
		"Proxy-Authorization": true, "X-Request-Source": false, "Accept": false, "OpenAI-Organization": false,
	} {
		if got := CredentialHeader(name); got != want {
			t.Errorf("CredentialHeader(%q) = %v, want %v", name, got, want)
		}
	}
}
