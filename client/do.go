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

	"surge/openai"
	"surge/trace"
)

// Do sends req and returns what happened; it never returns a Go error: a
// failed request is data in Result (ErrClass, Err, Status), with whatever
// times were observed before the failure.
//
// Error classes (Result.ErrClass), with the causes of each
// (Result.Cause):
//   - "http": the status was not 2xx (cause "status"); Err holds the
//     status and a short excerpt of the body (the error message when the
//     body is a JSON error), and RetryAfter the Retry-After header. Also,
//     with Status 0 and nothing sent, a request that cannot be built
//     (cause "invalid"): an unknown req.API, or Messages on a completions
//     request.
//   - "stream": a 2xx response carried an error (cause "error_event": a
//     data event that is an error object, an "error" event or
//     llama-server's "error:" field, or a non-streamed body that is an
//     error object), data that is not valid JSON ("malformed"), or a
//     stream that ended cleanly without "[DONE]" and without any
//     finish_reason ("truncated"; a stream with a finish_reason but no
//     "[DONE]" is accepted), or a 2xx body in a Content-Encoding the
//     client does not decode ("malformed"): it asks for identity, and
//     decodes gzip, which some servers send anyway.
//   - "timeout": no connection within Config.ConnectTimeout
//     ("connect_timeout"), no response byte within Config.FirstByteTimeout
//     of getting the connection ("first_byte_timeout"), a gap in the body
//     longer than Config.IdleTimeout ("idle_timeout"), or Config.Timeout,
//     the ctx deadline or another network timeout ("deadline").
//   - "cancelled": ctx was cancelled by the caller.
//   - "connection": the connection was refused ("refused"), reset by the
//     peer ("reset"), closed before the response was complete, including
//     EOF in the middle of a chunked body ("closed"), or failed otherwise
//     ("network": DNS, TLS, protocol errors).
//   - "too_large": the body passed Config.MaxResponseBytes ("too_large");
//     reading stopped there and the connection was closed.
//
// For the classes "timeout", "connection" and "too_large" Err starts with
// the cause and a colon ("idle_timeout: reading response stream: no data
// after 2s"), so the cause survives in a record's error text.
//
// Anything after "[DONE]" is drained for connection reuse (within the
// response cap and the idle timeout) and ignored, even an error. A request whose reused connection turns out closed before any
// response byte arrived is re-sent once on a fresh connection and counted in
// Resends, never as an error.
func (c *Client) Do(ctx context.Context, req *Request) *Result {
	res := &Result{}
	rt, ok := c.endpoint(req, res)
	if !ok {
		return res
	}
	caller := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	ctx, w := newWatch(ctx, c.limits)
	defer w.stop()
	// Sending is a call of its own: Do's frame stays on the stack all the
	// time a stream is read, so it is kept small (see readStream).
	resp, p := c.send(caller, ctx, w, rt, req, res)
	if resp != nil {
		defer resp.Body.Close()
		res.Status = resp.StatusCode
		r := c.reads.Get().(*reader)
		r.clock = newArrivals(p.receiver(), p.sent(), req)
		defer c.release(r)
		raw := w.body(resp.Body)
		in, err := decodedBody(resp, raw)
		switch {
		case resp.StatusCode < 200 || resp.StatusCode > 299:
			if err != nil {
				in = raw // the status says enough
			}
			readFailure(in, resp.Header, r, res)
		case err != nil:
			res.fail(trace.ErrStream, CauseMalformed, err.Error())
		case isStream(resp, req.Stream && openai.Streams(req.API)):
			readStream(caller, ctx, in, r, res, req, c.limits.maxBytes)
		default:
			readWhole(caller, ctx, in, r, res, req, c.limits.maxBytes)
		}
	}
	res.Sent = p.sent()
	res.Err = c.Redact(res.Err)
	return res
}

// release hands r back to the pool, holding no connection.
func (c *Client) release(r *reader) {
	r.clock = arrivals{}
	c.reads.Put(r)
}

// endpoint returns the route req is sent by, or false when it cannot be
// sent, with the reason recorded in res.
func (c *Client) endpoint(req *Request, res *Result) (route, bool) {
	r, ok := c.routes[req.API]
	why := ""
	switch {
	case !ok:
		why = fmt.Sprintf("unknown api %q: want one of %s", req.API, strings.Join(openai.APIs(), ", "))
	case len(req.Messages) > 0 && !openai.Conversational(req.API):
		why = fmt.Sprintf("api %q takes text, not messages (%d given): send them to the %q, %q or %q api", req.API, len(req.Messages), openai.APIChat, openai.APIResponses, openai.APIMessages)
	case len(req.Tools) > 0 && !openai.Conversational(req.API):
		why = fmt.Sprintf("api %q defines no tools (%d given): send them to the %q, %q or %q api", req.API, len(req.Tools), openai.APIChat, openai.APIResponses, openai.APIMessages)
	case req.API == openai.APIMessages && req.MaxTokens <= 0:
		why = fmt.Sprintf("api %q needs max_tokens, which Anthropic's API requires: give the request a MaxTokens (a workload's max_tokens: output or a number, not none)", req.API)
	case len(req.Inputs) > 0 && req.API != openai.APIEmbeddings:
		why = fmt.Sprintf("api %q takes one prompt, not a batch of %d inputs: send them to the %q api", req.API, len(req.Inputs), openai.APIEmbeddings)
	case len(req.Documents) > 0 && !openai.Scores(req.API):
		why = fmt.Sprintf("api %q scores no documents (%d given): send them to the %q or %q api", req.API, len(req.Documents), openai.APIRerank, openai.APIScore)
	case len(req.Documents) == 0 && openai.Scores(req.API):
		why = fmt.Sprintf("api %q needs documents to score against the query: give the request its Documents", req.API)
	case req.Options.Check(req.API) != nil:
		why = "request options: " + req.Options.Check(req.API).Error()
	case len(req.Extra) > 0 && openai.CheckObject(req.Extra) != nil:
		why = fmt.Sprintf("extra body %s: %v", openai.Clip(string(req.Extra), dataExcerpt), openai.CheckObject(req.Extra))
	}
	if why != "" {
		res.fail(trace.ErrHTTP, CauseInvalid, why)
		return route{}, false
	}
	return r, true
}

// send sends req by rt, once more on a fresh connection if a pooled one
// turns out dead, and returns the response and the probe that timed it. On
// failure it records the error in res and returns no response.
func (c *Client) send(caller, ctx context.Context, w *watch, rt route, req *Request, res *Result) (*http.Response, *probe) {
	body := openai.AppendOptions(buildBody(req), req.API, req.Options)
	if len(req.Extra) > 0 {
		body, _ = openai.MergeObject(body, req.Extra) // checked by endpoint
	}
	header := rt.header
	if len(req.Header) > 0 {
		header = withHeader(rt.header, req.Header)
	}
	if req.Malformed {
		body = body[:len(body)/2]
	}
	transport := c.pooled
	if req.NewConn {
		transport = c.fresh
	}
	p := newProbe(c.epoch, w)
	ctx = httptrace.WithClientTrace(ctx, &p.trace)
	resp, err := transport.RoundTrip(newHTTPRequest(ctx, rt.url, header, body))
	before := int64(0) // p.wrote before the last attempt
	if err != nil && p.reused.Load() && p.response.Load() == 0 && ctx.Err() == nil {
		// The pooled connection was dead (the server closed it after its
		// last response): nothing was received, so sending again on a
		// connection of our own is safe.
		res.Resends++
		before = p.wrote.Load()
		w.redial()
		resp, err = c.fresh.RoundTrip(newHTTPRequest(ctx, rt.url, header, body))
	}
	if wr := p.wrote.Load(); wr != 0 && wr != before {
		res.Written = true
	}
	if err != nil {
		class, cause := classify(caller, ctx, err)
		// Once the last attempt's request was fully written, the error
		// came while awaiting the response (a timeout, a reset).
		stage := "sending request: "
		if res.Written {
			stage = "awaiting response: "
		}
		res.fail(class, cause, stage+withTLSHint(reason(ctx, err)).Error())
		return nil, p
	}
	return resp, p
}

// buildBody encodes req as a JSON body of its API in one pass, into a
// buffer sized for the prompt or messages so that it rarely grows.
// Messages are encoded where they are, not copied.
func buildBody(req *Request) []byte {
	msgs := req.Messages
	if len(msgs) == 0 && openai.Conversational(req.API) {
		msgs = []openai.Message{{Role: "user", Content: req.Prompt}}
	}
	dst := make([]byte, 0, bodySize(req))
	switch req.API {
	case openai.APIResponses:
		return responsesBody(req, msgs).AppendJSON(dst)
	case openai.APIMessages:
		return messagesBody(req, msgs).AppendJSON(dst)
	case openai.APIEmbeddings:
		return embeddingsBody(req).AppendJSON(dst)
	case openai.APIRerank:
		return rerankBody(req).AppendJSON(dst)
	case openai.APIScore:
		return scoreBody(req).AppendJSON(dst)
	}
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
	if req.API == openai.APICompletions {
		r.Prompt = req.Prompt
	} else {
		r.Messages = msgs
		if len(req.Tools) > 0 {
			r.Tools, r.ToolChoice, r.ParallelToolCalls = openai.ChatTools(req.Tools), req.ToolChoice, &req.ParallelToolCalls
		}
	}
	if req.Stream {
		r.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	return r.AppendJSON(dst)
}

// withHeader is the client's header h with the request's own headers
// added, except those h sets.
func withHeader(h, own http.Header) http.Header {
	out := h.Clone()
	for name, vs := range own {
		if out.Get(name) == "" {
			out[http.CanonicalHeaderKey(name)] = vs
		}
	}
	return out
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
