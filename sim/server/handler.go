package server

import (
	"fmt"
	"net/http"

	"surge/openai"
)

// Handler returns the server's HTTP routes: the APIs (openai.APIs, at
// their paths and openai.Aliases),
// /v1/models, /health and /metrics. Completion requests wait for the
// engine loop, so Run (or Serve) must be running.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, api := range openai.APIs() {
		path, _ := openai.Path(api)
		for _, p := range append([]string{path}, openai.Aliases(api)...) {
			mux.HandleFunc("POST "+p, func(w http.ResponseWriter, r *http.Request) { s.complete(w, r, api) })
		}
	}
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.Handle("GET /metrics", s.metrics.handler())
	return stampArrival(s.gate(mux))
}

// complete serves one request of api.
func (s *Server) complete(w http.ResponseWriter, r *http.Request, api string) {
	arrival := arrivedAt(r)
	restarted := s.restartSignal()
	req, j, aerr := s.admit(w, r, api)
	if aerr != nil {
		writeError(w, aerr)
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

// decodeBody decodes a request's body and checks the model name.
func (s *Server) decodeBody(body []byte, api string) (request, *apiError) {
	req, err := decodeRequest(body, api)
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
