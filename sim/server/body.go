package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// readBody reads r's body within Config.BodyTimeout and under
// Config.MaxBodyBytes. Its errors are *apiError (408, 413 or 400), and
// after one the connection closes: what is left of the body on the wire
// must not be read as the next request.
//
// Subtleness ahead: the read deadline is cleared only when the body is in.
// A deadline left on the connection would cancel a long stream's context
// when it passed (which is why Serve sets no http.Server.ReadTimeout); but
// after a failed read, net/http tries to read the rest of the body before
// it writes the answer, and without the deadline it would wait for bytes
// the client never sends, holding the connection forever.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout))
	body, err := readAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes), r.ContentLength, s.cfg.MaxBodyBytes)
	if err == nil {
		rc.SetReadDeadline(time.Time{})
		return body, nil
	}
	w.Header().Set("Connection", "close")
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, &apiError{status: http.StatusRequestTimeout, typ: "RequestTimeoutError",
			msg: fmt.Sprintf("request body not received within %v", s.cfg.BodyTimeout)}
	case errors.As(err, &tooBig):
		return nil, &apiError{status: http.StatusRequestEntityTooLarge, typ: "RequestEntityTooLarge",
			msg: fmt.Sprintf("request body is larger than %d bytes", tooBig.Limit)}
	default:
		return nil, badRequest(fmt.Sprintf("reading request body: %v", err))
	}
}

// readAll reads r to its end. When the length is declared (and within
// limit) the buffer is allocated once at that size rather than grown by
// doubling, which would keep up to twice the body.
func readAll(r io.Reader, declared, limit int64) ([]byte, error) {
	if declared <= 0 || declared > limit {
		return io.ReadAll(r)
	}
	var b bytes.Buffer
	b.Grow(int(declared) + bytes.MinRead)
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}
