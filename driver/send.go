package driver

import (
	"context"
	"time"

	"surge/client"
	"surge/openai"
	"surge/trace"
)

// attempt is one request as the driver sees it: which turn, with what
// model, when it was meant to go, how long it queued, and when the client
// was called and returned.
type attempt struct {
	session  *trace.Session
	turn     int
	model    string
	warmup   bool
	intended time.Duration // offset from the start the schedule meant
	queue    time.Duration // waiting for a concurrency slot

	called, returned time.Time // around Client.Do
	inputs           int       // texts an embeddings request embeds; 0 for other APIs
	inputTokens      int       // prompt tokens surge means to send by the trace's counts, the salt's among them
	clientTokens     int       // prompt tokens counted by surge
	stormed          bool      // cancelled by a cancellation storm
	retries          int       // re-sends under the retry policy (see run.do)
	resends          int       // the client's re-sends on a dead connection, over every attempt
}

// attempt prepares turn k of s, intended at the given offset.
func (r *run) attempt(s *trace.Session, k int, intended time.Duration) attempt {
	a := attempt{
		session:  s,
		turn:     k,
		model:    pick(r.cfg.Model, s.Model, r.d.models[s.Client]),
		warmup:   intended < r.d.warmup,
		intended: intended,
	}
	if pick(r.cfg.API, s.API) == openai.APIEmbeddings {
		a.inputs = max(len(s.Turns[k].Inputs), 1)
	}
	return a
}

// request builds the client request for a, turn a.turn of the session
// whose conversation is conv: a chat request carries the conversation so
// far, a completions request its salted prompt.
func (r *run) request(a *attempt, conv *conversation) *client.Request {
	t := &a.session.Turns[a.turn]
	req := &client.Request{
		API:         pick(r.cfg.API, a.session.API),
		Model:       a.model,
		MaxTokens:   t.MaxTokens,
		MinTokens:   t.MinTokens,
		IgnoreEOS:   t.IgnoreEOS,
		Temperature: t.Temperature,
		TopP:        t.TopP,
		Stream:      r.cfg.Stream,
		KeepText:    conv.keep[a.turn],
	}
	o := r.d.options[a.session.Client]
	req.Extra, req.Header = o.extra, o.header(a.session)
	if r.cfg.ReasoningHint {
		req.ReasoningTokens = t.ReasoningTokens
	}
	switch {
	case req.API == openai.APIEmbeddings:
		req.Prompt, req.Inputs = conv.inputs(a.turn)
	case !openai.Conversational(req.API):
		req.Prompt = conv.completion(a.turn)
	default:
		req.Messages = conv.messages(a.turn)
		if ts := a.session.Tools; ts != nil && len(conv.tools) > 0 {
			req.Tools, req.ToolChoice, req.ParallelToolCalls = conv.tools, ts.Choice, ts.Parallel
		}
	}
	return req
}

// send sends a, writes its record and reports whether it succeeded.
func (r *run) send(a *attempt, conv *conversation) bool {
	req := r.request(a, conv)
	ctx, release := inject(r.reqCtx, req, a.session.Turns[a.turn].Fault)
	ctx, untrack := r.storms.track(ctx, a)
	r.stats.sent.Add(1)
	res := r.do(ctx, a, req)
	a.stormed = untrack()
	release()
	// Counting happens after the request, so a slow tokenizer never adds
	// to the schedule lag.
	a.inputTokens = conv.inputTokens(a.turn)
	a.clientTokens = a.inputTokens
	if r.cfg.Count != nil {
		a.clientTokens = r.count(req)
	}
	conv.finished(a.turn, res.Text, res.CompletionTokens)
	rec := a.record(r.start, res)
	r.write(&rec, rec.OK() && !res.FirstToken.IsZero())
	return rec.OK()
}

// classify guards against a nil result and names a failure caused by the
// driver's own cancellation (end of drain, interrupt) "cancelled", whatever
// the client made of the broken connection, with the reason as its error
// (the drain that expired, and what sets it) rather than the client's
// "context canceled".
func (r *run) classify(res *client.Result) *client.Result {
	if res == nil {
		return &client.Result{ErrClass: trace.ErrConnection, Err: "client returned no result"}
	}
	if res.ErrClass != "" && r.reqCtx.Err() != nil {
		c := *res
		c.ErrClass, c.Cause = trace.ErrCancelled, client.CauseCancelled
		c.Err = context.Cause(r.reqCtx).Error()
		return &c
	}
	return res
}

// count counts the prompt tokens of req with Config.Count: the sum over
// its messages, as the chat template's own tokens are not surge's to count.
func (r *run) count(req *client.Request) int {
	n := 0
	for _, in := range req.Inputs {
		n += r.cfg.Count(in)
	}
	if len(req.Messages) == 0 {
		return n + r.cfg.Count(req.Prompt)
	}
	for _, m := range req.Messages {
		n += r.cfg.Count(m.Content)
	}
	return n
}
