package bundle

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"surge/internal/redact"
)

// maxModelsBody bounds the /v1/models answer kept in a manifest.
const maxModelsBody = 1 << 20

// Probe asks the server at base for GET /v1/models through hc, which
// adds the credentials (client.HTTPClient), and returns what it said: the
// answer, the first model id and the headers naming the server or a
// version. A server that does not answer is described by Server.Error,
// without the user information of any URL, not an error: a bundle is
// written either way.
func Probe(ctx context.Context, hc *http.Client, base string) *Server {
	s := &Server{}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/v1/models", nil)
	if err != nil {
		s.Error = redact.URL(err.Error())
		return s
	}
	resp, err := hc.Do(req)
	if err != nil {
		s.Error = redact.URL(err.Error())
		return s
	}
	defer resp.Body.Close()
	s.Headers = versionHeaders(resp.Header)
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxModelsBody))
	switch {
	case err != nil:
		s.Error = err.Error()
	case resp.StatusCode != http.StatusOK:
		s.Error = fmt.Sprintf("GET /v1/models: HTTP %d", resp.StatusCode)
	case !json.Valid(body):
		s.Error = "GET /v1/models: the answer is not JSON"
	default:
		s.Models = body
		s.Model = firstModel(body)
	}
	return s
}

// versionHeaders keeps the headers that name the server or a version.
func versionHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for name, vs := range h {
		l := strings.ToLower(name)
		if l == "server" || l == "x-powered-by" || strings.Contains(l, "version") {
			out[name] = strings.Join(vs, ", ")
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// firstModel is the first model id of an OpenAI /v1/models answer.
func firstModel(body []byte) string {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &list) != nil || len(list.Data) == 0 {
		return ""
	}
	return list.Data[0].ID
}

// Redact replaces every string of s, the answer included, with what
// redact makes of it, so that a server echoing a credential in its
// /v1/models answer or headers leaves it out of the manifest. A redactor
// that keeps JSON valid (it replaces text inside strings by text without
// quotes or backslashes) keeps Models valid.
func (s *Server) Redact(redact func(string) string) {
	if len(s.Models) > 0 {
		s.Models = json.RawMessage(redact(string(s.Models)))
	}
	s.Model, s.Error = redact(s.Model), redact(s.Error)
	for k, v := range s.Headers {
		s.Headers[k] = redact(v)
	}
}
