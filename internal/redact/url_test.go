package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want, why string }{
		{"http://127.0.0.1:8000", "http://127.0.0.1:8000", "no credentials"},
		{"https://user:s3cret@api.example.com/v1", "https://api.example.com/v1", "user and password"},
		{"http://tok@h:1", "http://h:1", "a user name alone may be a token"},
		{"llama=http://u:p@h1:8000,*=http://h2:8000", "llama=http://h1:8000,*=http://h2:8000", "a target list"},
		{"a=http://h1:8000,b=http://u:p@h2:8000", "a=http://h1:8000,b=http://h2:8000", "credentials in a later entry"},
		{"ttft.p99<=2s", "ttft.p99<=2s", "not a URL"},
		{"sim://Llama-3.1-8B@H100-SXMx1", "sim://Llama-3.1-8B@H100-SXMx1", "a simulated target has no credentials"},
		{"HTTPS://k@h", "HTTPS://h", "the scheme in capitals"},
		{"http://u:p@[::1", "http://[::1", "a broken URL loses its credentials too"},
		{"http://u:p@[::1]:8000/x", "http://[::1]:8000/x", "an IPv6 host"},
		{`Get "http://alice:pw@127.0.0.1:9/metrics": dial tcp`, `Get "http://127.0.0.1:9/metrics": dial tcp`, "a URL quoted in an error"},
		{`{"url":"http:\/\/u:p@h:1\/v1"}`, `{"url":"http:\/\/h:1\/v1"}`, "JSON with escaped slashes"},
		{"http://u:a,b@h/x", "http://h/x", "a comma in the password"},
		{"http://u:p%40ss@h", "http://h", "a percent-encoded @ in the password"},
		{"http://u:a@b@h", "http://h", "a raw @ in the password: the last one ends the user information"},
		{"postgres://u:p@db:5432", "postgres://db:5432", "any scheme but sim"},
		{"see http://h/docs or mail a@b.c", "see http://h/docs or mail a@b.c", "an address outside any URL"},
		{"http://h?x=a@b", "http://h?x=a@b", "an @ in the query"},
		{"", "", "empty"},
	} {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("%s: URL(%q) = %q, want %q", tt.why, tt.in, got, tt.want)
		}
	}
}

// FuzzURL checks that URL never panics, is idempotent, and leaves no
// user information before the host of an http URL.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"http://u:p@h", "a=http://u:p@h,b=https://k@h2/x", `http:\/\/u@h`, "sim://m@g", "http://@", "://@"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := URL(s)
		if again := URL(out); again != out {
			t.Fatalf("URL(%q) = %q, but URL of that = %q", s, out, again)
		}
		if len(out) > len(s) {
			t.Fatalf("URL(%q) = %q is longer", s, out)
		}
		if i := strings.Index(out, "http://"); i >= 0 {
			rest := out[i+len("http://"):]
			if strings.Contains(rest[:authorityEnd(rest)], "@") {
				t.Fatalf("URL(%q) = %q keeps user information", s, out)
			}
		}
	})
}
