package bundle

import (
	"net/url"
	"strings"
)

// RedactURL removes the user information (user name and password) from
// every URL in s, which may be one URL or a target list such as
// "llama=http://u:p@h1:8000,*=http://h2:8000". Text that is not a URL is
// kept.
func RedactURL(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		key, u, ok := strings.Cut(p, "=")
		if !ok || !strings.Contains(u, "://") {
			key, u = "", p
		}
		if r := redactOne(u); key != "" {
			parts[i] = key + "=" + r
		} else {
			parts[i] = r
		}
	}
	return strings.Join(parts, ",")
}

// redactOne removes the user information of one HTTP(S) URL. Other
// schemes are kept: sim://Llama-3.1-8B@H100-SXMx1 names a simulated target.
func redactOne(s string) string {
	l := strings.ToLower(s)
	if !(strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")) || !strings.Contains(s, "@") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	return u.String()
}

// secretFlags are flags whose value is a secret itself. surge takes no
// such flag (keys come from the environment, named by --api-key-env),
// but a wrapper script might pass one through.
var secretFlags = []string{"--api-key", "--key", "--token", "--password"}

// RedactArgs returns a copy of a command line with the user information
// of every URL removed and the values of secret-bearing flags replaced.
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	hide := false
	for i, a := range args {
		switch {
		case hide:
			out[i], hide = "(redacted)", false
			continue
		case isSecretFlag(a):
			if name, _, ok := strings.Cut(a, "="); ok {
				out[i] = name + "=(redacted)"
			} else {
				out[i], hide = a, true
			}
			continue
		}
		if name, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "-") {
			out[i] = name + "=" + RedactURL(v)
		} else {
			out[i] = RedactURL(a)
		}
	}
	return out
}

func isSecretFlag(a string) bool {
	name, _, _ := strings.Cut(a, "=")
	for _, f := range secretFlags {
		if name == f {
			return true
		}
	}
	return false
}
