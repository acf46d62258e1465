package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Handler returns the server's HTTP routes: the two completion APIs,
// /v1/models, /health and /metrics. Completion requests wait for the
// engine loop, so Run (or Serve) must be running.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) { s.complete(w, r, true) })
	mux.HandleFunc("POST /v1/completions", func(w http.ResponseWriter, r *http.Request) { s.complete(w, r, false) })
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.Handle("GET /metrics", s.metrics.handler())
	return stampArrival(s.gate(mux))
}

// complete serves one chat (chat true) or completions request.
func (s *Server) complete(w http.ResponseWriter, r *http.Request, chat bool) {
	arrival := arrivedAt(r)
	restarted := s.restartSignal()
	req, aerr := s.readRequest(w, r, chat)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	j, err := s.prepare(req)
	if err != nil {
		writeError(w, err.(*apiError))
		return
	}
	p := s.faults.draw(arrival.Sub(s.start), req.stream, j.outputLen)
	p.restarted = restarted
	if !s.injectBefore(w, r, p) {
		return
	}
	st := newStream(s.newID(), j, arrival)
	st.restarted = restarted
	if !s.submit(st) {
		writeError(w, errShutdown)
		return
	}
	if req.stream {
		s.writeStream(w, r, req, st, p)
		return
	}
	s.writeWhole(w, r, req, st)
}

// readRequest reads and decodes the body under the size limit and checks
// the model name.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request, chat bool) (request, *apiError) {
	// A client must send its body within bodyTimeout. The deadline is
	// cleared once the body is in, since a read deadline left on the
	// connection would cancel a long stream's context when it passed
	// (which is why Serve sets no http.Server.ReadTimeout).
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(bodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	rc.SetReadDeadline(time.Time{})
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &netErr) && netErr.Timeout():
		return request{}, &apiError{status: http.StatusRequestTimeout, typ: "RequestTimeoutError",
			msg: fmt.Sprintf("request body not received within %v", bodyTimeout)}
	case errors.As(err, &tooBig):
		return request{}, &apiError{status: http.StatusRequestEntityTooLarge, typ: "RequestEntityTooLarge",
			msg: fmt.Sprintf("request body is larger than %d bytes", tooBig.Limit)}
	case err != nil:
		return request{}, badRequest(fmt.Sprintf("reading request body: %v", err))
	}
	req, err := decodeRequest(body, chat)
	if err != nil {
		return request{}, err.(*apiError)
	}
	if req.model != s.cfg.Model {
		return request{}, &apiError{status: http.StatusNotFound, typ: "NotFoundError",
			msg: fmt.Sprintf("The model `%s` does not exist.", req.model)}
	}
	return req, nil
}

// newID returns a fresh request ID.
func (s *Server) newID() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	return s.nextID
}

// models lists the served model as OpenAI's GET /v1/models does.
func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	type model struct {
		ID          string `json:"id"`
		Object      string `json:"object"`
		Created     int64  `json:"created"`
		OwnedBy     string `json:"owned_by"`
		Root        string `json:"root"`
		MaxModelLen int    `json:"max_model_len"`
	}
	writeJSON(w, struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{"list", []model{{s.cfg.Model, "model", s.created, "surge", s.cfg.Model, s.engCfg.MaxModelLen}}})
}
