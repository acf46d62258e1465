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
	documents        int       // documents a rerank or score request scores; 0 for other APIs
	inputTokens      int       // prompt tokens surge means to send by the trace's counts, the salt's among them
	clientTokens     int       // prompt tokens counted by surge
	images           imageCount
	stormed          bool // cancelled by a cancellation storm
	retries          int  // re-sends under the retry policy (see run.do)
	resends          int  // the client's re-sends on a dead connection, over every attempt
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
	switch api := pick(r.cfg.API, s.API); {
	case api == openai.APIEmbeddings:
		a.inputs = max(len(s.Turns[k].Inputs), 1)
	case openai.Scores(api):
		a.documents = len(s.Turns[k].Documents)
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
	req.Extra, req.Header, req.Options = o.extra, o.header(a.session), o.typed
	if r.cfg.ReasoningHint {
		req.ReasoningTokens = t.ReasoningTokens
		req.Header = copyHeader(req.Header, t.Copy)
	}
	switch {
	case req.API == openai.APIEmbeddings:
		req.Prompt, req.Inputs = conv.inputs(a.turn)
	case openai.Scores(req.API):
		req.Prompt, req.Documents = conv.scored(a.turn)
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
	a.images = conv.imageCount(a.turn)
	a.clientTokens = a.inputTokens
	if r.cfg.Count != nil {
		a.clientTokens = r.count(req)
	}
	conv.finished(a.turn, res.Text, res.Calls, replyTokens(req, res))
	rec := a.record(r.start, res)
	if n := req.Options.Choices(); n > 1 {
		rec.Choices, rec.ChoiceTokens, rec.MaxTokens = n, res.ChoiceTokens, req.MaxTokens
	}
	r.write(&rec, rec.OK() && !res.FirstToken.IsZero())
	return rec.OK()
}

// replyTokens is the server's count of the reply a conversation goes on
// with, choice 0's: the usage counts every choice of a request for
// several, so choice 0's own events count it, or, for a response that
// came whole, an even share of the usage.
func replyTokens(req *client.Request, res *client.Result) int {
	n := req.Options.Choices()
	switch {
	case n == 1:
		return res.CompletionTokens
	case len(res.ChoiceTokens) > 0:
		return res.ChoiceTokens[0]
	}
	return res.CompletionTokens / n
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
// its messages and their tool calls' arguments, as the chat template's
// own tokens are not surge's to count; for a rerank or score request, over
// its query and document pairs.
func (r *run) count(req *client.Request) int {
	if len(req.Documents) > 0 {
		n := len(req.Documents) * r.cfg.Count(req.Prompt)
		for _, d := range req.Documents {
			n += r.cfg.Count(d)
		}
		return n
	}
	n := 0
	for _, in := range req.Inputs {
		n += r.cfg.Count(in)
	}
	if len(req.Messages) == 0 {
		return n + r.cfg.Count(req.Prompt)
	}
	for _, m := range req.Messages {
		n += r.cfg.Count(m.Content)
		for _, c := range m.Calls {
			n += r.cfg.Count(c.Arguments)
		}
	}
	return n
}
