package client

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter bounds the wait a Retry-After header can ask for, so an
// absurd value cannot overflow a Duration.
const maxRetryAfter = 24 * time.Hour

// retryAfter reads a Retry-After header (RFC 9110 §10.2.3): a whole number
// of seconds or an HTTP date, which counts from now. An empty, malformed
// or past value gives 0; a value beyond a day gives a day.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, int64(maxRetryAfter/time.Second))) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	return min(max(t.Sub(now), 0), maxRetryAfter)
}
