package trace

import (
	"errors"
	"strconv"
	"strings"
)

// Placeholders a client's header value may hold (ClientInfo.Headers).
const (
	// ClientPlaceholder stands for the client's name.
	ClientPlaceholder = "{client}"
	// SessionPlaceholder stands for the session's id, "client-index": the
	// same for every turn of a session and different for every session,
	// so a router that keys its affinity on the header keeps a
	// conversation on one replica.
	SessionPlaceholder = "{session}"
)

// HeaderValue is the value v of a client's header as session s sends
// it, its placeholders replaced.
func HeaderValue(v string, s *Session) string {
	if !strings.Contains(v, "{") {
		return v
	}
	v = strings.ReplaceAll(v, SessionPlaceholder, s.Client+"-"+strconv.Itoa(s.Index))
	return strings.ReplaceAll(v, ClientPlaceholder, s.Client)
}

// CheckHeaderValue reports a header value holding a brace that is not
// one of the placeholders', or a character a header cannot carry.
func CheckHeaderValue(v string) error {
	rest := strings.ReplaceAll(strings.ReplaceAll(v, SessionPlaceholder, ""), ClientPlaceholder, "")
	switch {
	case strings.ContainsAny(rest, "{}"):
		return errors.New("the only placeholders are " + ClientPlaceholder + " and " + SessionPlaceholder)
	case strings.ContainsFunc(v, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }):
		return errors.New("a header value cannot hold control characters")
	}
	return nil
}
