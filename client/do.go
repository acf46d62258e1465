package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"time"

	"surge/openai"
)

// Error classes of Result.ErrClass: the strings of trace.Err*, which this
// package does not import.
const (
	errHTTP       = "http"       // non-2xx status, or a request that could not be built
	errStream     = "stream"     // error or malformed data inside a 2xx response
	errTimeout    = "timeout"    // Config.Timeout or the ctx deadline passed
	errConnection = "connection" // could not connect, or the connection broke
	errCancelled  = "cancelled"  // ctx cancelled by the caller
)

// Do sends req and returns what happened; it never returns a Go error: a
// failed request is data in Result (ErrClass, Err, Status), with whatever
// times were observed before the failure.
//
// Error classes:
//   - "http": the status was not 2xx; Err holds the status and a short
//     excerpt of the body (the error message when the body is a JSON
//     error). Also, with Status 0 and nothing sent, a request that cannot
//     be built: an unknown req.API, or Messages on a completions request.
//   - "stream": a 2xx response carried an error (a data event that is an
//     error object, an "error" event or llama-server's "error:" field, or a
//     non-streamed body that is an error object), data that is not valid
//     JSON, or a stream that ended cleanly without "[DONE]" and without
//     any finish_reason (a stream with a finish_reason but no "[DONE]" is
//     accepted).
//   - "timeout": Config.Timeout or the ctx deadline passed, or a network
//     timeout occurred, before the response was complete.
//   - "cancelled": ctx was cancelled by the caller.
//   - "connection": dialling failed, or the connection was reset or closed
//     before the response was complete (including EOF in the middle of a
//     chunked body).
//
// Anything after "[DONE]" is drained for connection reuse and ignored, even
// an error. A request whose reused connection turns out closed before any
// response byte arrived is re-sent once on a fresh connection and counted in
// Retries, never as an error.
func (c *Client) Do(ctx context.Context, req *Request) *Result {
	res := &Result{}
	u, ok := c.urls[req.API]
	if !ok {
		res.ErrClass, res.Err = errHTTP, fmt.Sprintf("unknown api %q: want %q or %q", req.API, openai.APIChat, openai.APICompletions)
		return res
	}
	if req.API == openai.APICompletions && len(req.Messages) > 0 {
		res.ErrClass, res.Err = errHTTP, fmt.Sprintf("api %q takes a prompt, not messages (%d given): send them to the %q api", req.API, len(req.Messages), openai.APIChat)
		return res
	}
	caller := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	body := buildBody(req)
	p := newProbe(c.epoch)
	ctx = httptrace.WithClientTrace(ctx, &p.trace)
	resp, err := c.pooled.RoundTrip(newHTTPRequest(ctx, u, c.header, body))
	before := int64(0) // p.wrote before the last attempt
	if err != nil && p.reused.Load() && p.response.Load() == 0 && ctx.Err() == nil {
		// The pooled connection was dead (the server closed it after its
		// last response): nothing was received, so sending again on a
		// connection of our own is safe.
		res.Retries++
		before = p.wrote.Load()
		resp, err = c.fresh.RoundTrip(newHTTPRequest(ctx, u, c.header, body))
	}
	if err != nil {
		res.Sent = p.sent()
		res.ErrClass = classify(caller, ctx, err)
		// Once the last attempt's request was fully written, the error
		// came while awaiting the response (a timeout, a reset).
		stage := "sending request: "
		if w := p.wrote.Load(); w != 0 && w != before {
			stage = "awaiting response: "
		}
		res.Err = c.redact(stage + err.Error())
		return res
	}
	defer resp.Body.Close()
	res.Status = resp.StatusCode
	r := c.reads.Get().(*reader)
	defer c.reads.Put(r)
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		readFailure(resp.Body, r, res)
	case isStream(resp, req.Stream):
		if req.MaxTokens > 0 {
			res.TokenTimes = make([]time.Time, 0, min(req.MaxTokens, 1<<13))
		}
		readStream(caller, ctx, resp.Body, r, res, req.KeepText)
	default:
		readWhole(caller, ctx, resp.Body, r, res, req.KeepText)
	}
	res.Sent = p.sent()
	res.Err = c.redact(res.Err)
	return res
}

// buildBody encodes req as a JSON body in one pass, into a buffer sized for
// the prompt or messages so that it rarely grows. Messages are encoded
// where they are, not copied.
func buildBody(req *Request) []byte {
	r := openai.Request{
		Model:       req.Model,
		MaxTokens:   req.MaxTokens,
		MinTokens:   req.MinTokens,
		IgnoreEOS:   req.IgnoreEOS,
		Temperature: req.Temperature,

		SurgeReasoningTokens: req.ReasoningTokens,
		TopP:                 req.TopP,
		Stream:               req.Stream,
	}
	size := len(req.Prompt)
	switch {
	case req.API == openai.APICompletions:
		r.Prompt = req.Prompt
	case len(req.Messages) > 0:
		r.Messages = req.Messages
		size = messagesSize(req.Messages)
	default:
		r.Messages = []openai.Message{{Role: "user", Content: req.Prompt}}
	}
	if req.Stream {
		r.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	return r.AppendJSON(make([]byte, 0, size+len(req.Model)+256))
}

// messagesSize is the encoded size of msgs when nothing needs escaping.
func messagesSize(msgs []openai.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Role) + len(m.Content) + len(`{"role":"","content":""},`)
	}
	return n
}

// newHTTPRequest builds a POST of body to u. The URL and header are shared
// by all requests and only read by the transport.
func newHTTPRequest(ctx context.Context, u *url.URL, h http.Header, body []byte) *http.Request {
	hr := &http.Request{
		Method:        http.MethodPost,
		URL:           u,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		GetBody:       func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil },
		ContentLength: int64(len(body)),
		Host:          u.Host,
	}
	return hr.WithContext(ctx)
}

// isStream reports whether the response is an event stream: by its
// Content-Type, or when it has none, by whether a stream was asked for.
func isStream(resp *http.Response, asked bool) bool {
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		return true
	case ct == "":
		return asked
	}
	return false
}
