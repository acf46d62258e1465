package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"runtime/debug"
	"time"
)

// Bounds on the memory requests cost before they reach the engine.
// Decoding and tokenizing a body costs about 70 times its size at the
// peak (most of it the tokenizer's pre-splitting), so without a bound
// four 30 MB prompts at once cost 5.6 GB.
const (
	// heldBodiesFactor × Config.MaxBodyBytes bounds the bytes of bodies
	// being read or waiting to be decoded at once.
	heldBodiesFactor = 16
	// defaultQueueWait is how long a request waits for its turn to be read
	// or decoded before it is answered 503 with Retry-After.
	defaultQueueWait = 10 * time.Second
	// largeBody is the size from which a decoded body's memory is handed
	// back to the operating system once no other body is being decoded.
	largeBody = 1 << 20
	// busyRetryAfter is the Retry-After, in seconds, of a 503 for a full
	// queue.
	busyRetryAfter = "1"
)

// errBusy answers a request that waited too long for its turn.
var errBusy = &apiError{status: http.StatusServiceUnavailable, typ: "ServiceUnavailableError",
	msg: "the server is busy reading and tokenizing other large requests; retry later"}

// admit reads, decodes and tokenizes a request within the server's
// budgets: its body is held under s.held and decoded and tokenized under
// s.decoding. Its errors are *apiError.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, api string) (request, job, *apiError) {
	if r.ContentLength > s.cfg.MaxBodyBytes {
		w.Header().Set("Connection", "close")
		return request{}, job{}, &apiError{status: http.StatusRequestEntityTooLarge, typ: "RequestEntityTooLarge",
			msg: fmt.Sprintf("request body of %d bytes is larger than %d bytes", r.ContentLength, s.cfg.MaxBodyBytes)}
	}
	held, ok := s.take(w, r, s.held, declaredSize(r, s.cfg.MaxBodyBytes))
	if !ok {
		w.Header().Set("Connection", "close") // the body is left unread
		return request{}, job{}, errBusy
	}
	defer s.held.release(held)
	body, aerr := s.readBody(w, r)
	if aerr != nil {
		return request{}, job{}, aerr
	}
	n, ok := s.take(w, r, s.decoding, int64(len(body)))
	if !ok {
		return request{}, job{}, errBusy
	}
	req, j, aerr := s.decode(body, api)
	s.doneDecoding(n, len(body))
	if aerr == nil {
		j.copy, aerr = copyHint(r.Header)
	}
	return req, j, aerr
}

// take acquires n bytes of b, waiting at most s.queueWait; when it gives
// up it sets Retry-After on w.
func (s *Server) take(w http.ResponseWriter, r *http.Request, b *budget, n int64) (int64, bool) {
	ctx, cancel := context.WithTimeout(r.Context(), s.queueWait)
	defer cancel()
	got, err := b.acquire(ctx, n)
	if err != nil {
		w.Header().Set("Retry-After", busyRetryAfter)
		return 0, false
	}
	return got, true
}

// decode decodes body, checks the model and tokenizes the prompt. The
// request it returns no longer holds the prompt's text or ids.
func (s *Server) decode(body []byte, api string) (request, job, *apiError) {
	req, aerr := s.decodeBody(body, api)
	if aerr != nil {
		return request{}, job{}, aerr
	}
	j, err := s.prepare(req)
	if err != nil {
		return request{}, job{}, err.(*apiError)
	}
	req.texts, req.ids = nil, nil
	return req, j, nil
}

// doneDecoding gives n bytes back to the decoding budget after a body of
// size bytes was decoded. Once a large body has been decoded and no body
// is being decoded any more, the memory decoding took goes back to the
// operating system: the Go runtime would otherwise keep it, sized for the
// peak, until later garbage collections shrank its goal.
func (s *Server) doneDecoding(n int64, size int) {
	if size >= largeBody {
		s.returnMemory.Store(true)
	}
	if s.decoding.release(n) && s.returnMemory.CompareAndSwap(true, false) {
		debug.FreeOSMemory()
	}
}

// heldLimit is the budget of bodies held at once for bodies of at most
// maxBody bytes: heldBodiesFactor of them, without overflowing.
func heldLimit(maxBody int64) int64 {
	if maxBody > math.MaxInt64/heldBodiesFactor {
		return math.MaxInt64
	}
	return heldBodiesFactor * maxBody
}

// declaredSize is the budget a body takes while it is read: its
// Content-Length, or limit when it has none (chunked).
func declaredSize(r *http.Request, limit int64) int64 {
	if r.ContentLength >= 0 {
		return r.ContentLength
	}
	return limit
}
