package bundle

import (
	"strings"

	"surge/internal/redact"
)

// secretFlags are flags whose value is a secret itself. surge takes no
// such flag (keys come from the environment, named by --api-key-env),
// but a wrapper script might pass one through.
var secretFlags = []string{"--api-key", "--key", "--token", "--password"}

// headerFlags are flags whose value is a header, "Name: value".
var headerFlags = []string{"--header", "-H"}

// RedactArgs returns a copy of a command line with the user information
// of every URL removed and the values of secret-bearing flags replaced,
// the value of a --header too when its header carries a credential.
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	hide, header := false, false
	for i, a := range args {
		switch {
		case hide:
			out[i], hide = "(redacted)", false
			continue
		case header:
			out[i], header = redactHeader(a), false
			continue
		case isFlag(a, secretFlags):
			if name, _, ok := strings.Cut(a, "="); ok {
				out[i] = name + "=(redacted)"
			} else {
				out[i], hide = a, true
			}
			continue
		case isFlag(a, headerFlags):
			if name, v, ok := strings.Cut(a, "="); ok {
				out[i] = name + "=" + redactHeader(v)
			} else {
				out[i], header = a, true
			}
			continue
		}
		if name, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "-") {
			out[i] = name + "=" + redact.URL(v)
		} else {
			out[i] = redact.URL(a)
		}
	}
	return out
}

// redactHeader is a "Name: value" header with its value replaced when
// it carries a credential.
func redactHeader(h string) string {
	name, _, ok := strings.Cut(h, ":")
	if !ok || redact.CredentialHeader(name) {
		return name + ": (redacted)"
	}
	return redact.URL(h)
}

func isFlag(a string, flags []string) bool {
	name, _, _ := strings.Cut(a, "=")
	for _, f := range flags {
		if name == f {
			return true
		}
	}
	return false
}
