package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"surge/internal/redact"
	"surge/openai"
)

// maxBody bounds the bytes read from one answer.
const maxBody = 16 << 20

// endpoint is one target with its credentials taken out of the URL: base
// has no user information, so no error message can carry it, and secrets
// takes every form of the credentials out of what the server says.
type endpoint struct {
	client  *http.Client
	base    string
	user    *url.Userinfo // from the URL, sent as basic auth without a key
	key     string
	header  http.Header // Target.Header, read-only
	secrets *redact.Redactor
}

// newEndpoint parses t's URL and moves its user information aside.
func newEndpoint(client *http.Client, t Target) (endpoint, error) {
	u, err := url.Parse(t.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return endpoint{}, fmt.Errorf("target %s: not an http(s) URL", t.Name)
	}
	secrets := redact.Userinfo(t.BaseURL)
	if t.APIKey != "" {
		secrets = append(secrets, redact.Authorization("Bearer "+t.APIKey)...)
	}
	for name, vs := range t.Header {
		for _, v := range vs {
			if redact.CredentialHeader(name) {
				secrets = append(secrets, redact.Authorization(v)...)
			}
		}
	}
	e := endpoint{client: client, user: u.User, key: t.APIKey, header: t.Header, secrets: redact.New(secrets...)}
	u.User = nil
	e.base = strings.TrimRight(u.String(), "/")
	return e, nil
}

// do sends req with the endpoint's headers and credentials and returns
// the status and body; an error has no credential in its text.
func (e endpoint) do(req *http.Request) (int, []byte, error) {
	for name, vs := range e.header {
		req.Header[http.CanonicalHeaderKey(name)] = vs
	}
	switch {
	case e.key != "":
		req.Header.Set("Authorization", "Bearer "+e.key)
	case e.user != nil:
		p, _ := e.user.Password()
		req.SetBasicAuth(e.user.Username(), p)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return 0, nil, redactedError{err, e.secrets.String(err.Error())}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("reading answer: %w", err)
	}
	return resp.StatusCode, body, nil
}

// info asks GET /v1/models for the model to send, want or else the first
// listed, and the context of one request to it: vLLM's max_model_len,
// else llama-server's meta.n_ctx (the context of one slot), else the
// n_ctx of llama-server's GET /props default_generation_settings, else
// meta.n_ctx_train; 0 when the server says none of them.
func (e endpoint) info(ctx context.Context, want string) (string, int, error) {
	status, body, err := e.get(ctx, "/v1/models")
	if err != nil {
		return "", 0, fmt.Errorf("listing models: %w", err)
	}
	if status != http.StatusOK {
		return "", 0, fmt.Errorf("listing models: %w", e.statusError(status, body))
	}
	var list struct {
		Data []struct {
			ID          string `json:"id"`
			MaxModelLen int    `json:"max_model_len"`
			Meta        *struct {
				NCtx      int `json:"n_ctx"`
				NCtxTrain int `json:"n_ctx_train"`
			} `json:"meta"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil || len(list.Data) == 0 || list.Data[0].ID == "" {
		return "", 0, errors.New("listing models: no model id in the answer (pass a model)")
	}
	m := list.Data[0]
	for _, d := range list.Data {
		if d.ID == want {
			m = d
		}
	}
	model := want
	if model == "" {
		model = m.ID
	}
	switch {
	case m.MaxModelLen > 0:
		return model, m.MaxModelLen, nil
	case m.Meta == nil:
		return model, 0, nil
	case m.Meta.NCtx > 0:
		return model, m.Meta.NCtx, nil
	}
	if n := e.slotContext(ctx); n > 0 {
		return model, n, nil
	}
	return model, m.Meta.NCtxTrain, nil
}

// slotContext is llama-server's context per slot from GET /props, or 0.
func (e endpoint) slotContext(ctx context.Context) int {
	status, body, err := e.get(ctx, "/props")
	if err != nil || status != http.StatusOK {
		return 0
	}
	var props struct {
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if json.Unmarshal(body, &props) != nil {
		return 0
	}
	return props.Settings.NCtx
}

// get sends GET path with the endpoint's credentials.
func (e endpoint) get(ctx context.Context, path string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.base+path, nil)
	if err != nil {
		return 0, nil, err
	}
	return e.do(req)
}

// httpError is an answer other than 200.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.status, e.msg) }

// redactedError is an error whose text had credentials taken out.
type redactedError struct {
	err error
	msg string
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// statusError builds the error of a non-200 answer, keeping at most 300
// bytes of its body, credentials taken out first (so none is cut in two
// and kept in part).
func (e endpoint) statusError(status int, body []byte) *httpError {
	msg := e.secrets.String(strings.TrimSpace(string(body)))
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return &httpError{status: status, msg: msg}
}

// rejectsLogprobs reports whether err is a 400 that blames logprobs.
func rejectsLogprobs(err error) bool {
	var h *httpError
	return errors.As(err, &h) && h.status == http.StatusBadRequest &&
		strings.Contains(strings.ToLower(h.msg), "logprob")
}

// tooLongPrefix starts the error of an answer the server refused as
// longer than its context.
const tooLongPrefix = "too long for the server's context: "

// contextPhrases are what servers say when a request exceeds their
// context: llama-server's exceed_context_size_error ("exceeds the
// available context size"), vLLM's "maximum context length", OpenAI's
// context_length_exceeded, SGLang's "longer than the model's context
// length".
var contextPhrases = []string{"context size", "context_size", "context length", "context_length", "context window"}

// refusedForLength reports whether err is a 400 or 413 whose body says
// the request is longer than the server's context.
func refusedForLength(err error) bool {
	var h *httpError
	if !errors.As(err, &h) || (h.status != http.StatusBadRequest && h.status != http.StatusRequestEntityTooLarge) {
		return false
	}
	msg := strings.ToLower(h.msg)
	for _, p := range contextPhrases {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// ask sends one prompt and decodes the answer.
func (e endpoint) ask(ctx context.Context, model, prompt string, maxTokens int, logprobs bool) (Answer, error) {
	// Temperature and seed 0 are sent; logprobs is omitted, never null,
	// when false: llama-server rejects "logprobs": null.
	zero, seed := 0.0, 0
	r := openai.Request{Model: model, Messages: []openai.Message{{Role: "user", Content: prompt}},
		MaxTokens: maxTokens, Temperature: &zero, Seed: &seed, Logprobs: logprobs}
	body := r.AppendJSON(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return Answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	status, raw, err := e.do(req)
	if err != nil {
		return Answer{}, err
	}
	if status != http.StatusOK {
		return Answer{}, e.statusError(status, raw)
	}
	return decodeAnswer(raw)
}

// decodeAnswer reads the text, length, finish reason and logprobs of a
// chat completion.
func decodeAnswer(raw []byte) (Answer, error) {
	var r openai.Chunk
	if err := json.Unmarshal(raw, &r); err != nil {
		return Answer{}, fmt.Errorf("decoding answer: %w", err)
	}
	if len(r.Choices) == 0 {
		return Answer{}, errors.New("decoding answer: no choices")
	}
	c := r.Choices[0]
	var a Answer
	if c.Message != nil && c.Message.Content != nil {
		a.Text = *c.Message.Content
	}
	if c.FinishReason != nil {
		a.FinishReason = *c.FinishReason
	}
	if c.Logprobs != nil {
		for _, t := range c.Logprobs.Content {
			a.Tokens = append(a.Tokens, Token(t))
		}
	}
	if r.Usage != nil {
		a.CompletionTokens = r.Usage.CompletionTokens
	}
	return a, nil
}
