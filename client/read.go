package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"surge/openai"
	"surge/trace"
)

// Limits on what is kept of a response.
const (
	maxErrBody  = 64 << 10 // bytes of a non-2xx body read for its message
	errExcerpt  = 256      // bytes of an error message kept in Result.Err
	dataExcerpt = 96       // bytes of malformed data quoted in Result.Err
)

// maxKeptBuf is the capacity in bytes above which a read or text buffer is
// not kept in the pool for the next request.
const maxKeptBuf = 4 * readBufSize

// stream is the state of one event stream being read.
type stream struct {
	res      *Result
	api      string // the request's API, whose events these are
	finished bool   // a finish_reason was seen
	done     bool   // "[DONE]" was seen: the rest is drained and ignored
	failed   bool   // an error in the stream was recorded

	keep              bool          // collect the text and tool calls (Request.KeepText)
	answer, reasoning []byte        // the text so far, when keep
	calls             *openai.Calls // the tool calls so far, when keep
	ticks             ticks         // the token times so far
	hidden            int           // usage.completion_tokens_details.reasoning_tokens

	cancelAfter int // give up after this many token events (0: never)
	// n is the choices the request asked for; with more than one, each
	// token event's choices (by index, into idx) count in
	// Result.ChoiceTokens.
	n   int
	idx []int

	pace  pacer // how fast to read
	total int64 // bytes read so far
}

// readStream reads an event stream with r's buffer, stamping each read with
// the time it returned and every event the read completed with that time.
// The token times are collected in r's tick buffer and stored in res when
// reading ends, however it ends; so is the text, in r's text buffers, with
// keep. Past limit bytes (0: no limit) it stops with class "too_large", so
// neither the parser's pending event nor the token times can grow without
// bound.
//
// Its frame is on the stack, under the read, all the time a stream waits
// for its next bytes, so it is kept small: the stream's state is in r, and
// the work between reads is done in calls of their own. The garbage
// collector halves a goroutine's stack only while less than a quarter of
// it is in use, so the frames under a waiting read decide the stack of
// the goroutine that called Do (see BENCHMARKS.md, "Memory per stream in
// flight").
func readStream(caller, ctx context.Context, body io.Reader, r *reader, res *Result, req *Request, limit int64) {
	st := r.start(res, req)
	defer st.end(r)
	for {
		n, err := body.Read(r.buf[:st.pace.size])
		now := r.clock.at(time.Now())
		if st.total += int64(n); limit > 0 && st.total > limit {
			st.tooLarge(limit)
			return
		}
		if n > 0 && !st.done && !st.feed(r, n, now) {
			return
		}
		if err == nil && !st.pace.wait(ctx, n, !res.FirstToken.IsZero()) {
			err = ctx.Err()
		}
		if err != nil {
			st.stop(caller, ctx, r, err)
			return
		}
	}
}

// start readies r to read a stream for req into res: its stream state,
// its parser, and its tick and text buffers.
func (r *reader) start(res *Result, req *Request) *stream {
	r.st = stream{res: res, api: req.API, keep: req.KeepText, cancelAfter: req.CancelAfterTokens, pace: newPacer(req, len(r.buf))}
	st := &r.st
	if st.n = req.Options.Choices(); st.n > 1 {
		res.ChoiceTokens = make([]int, st.n)
	}
	st.ticks.after = r.ticks[:0]
	if st.keep {
		st.answer, st.reasoning = r.answer[:0], r.reasoning[:0]
		r.calls.Reset()
		st.calls = &r.calls
	}
	r.parser.Reset()
	return st
}

// end stores the token times and the text in the result, hands their
// buffers back to r and clears the stream state, so that the pooled
// reader keeps no reference to the result.
func (st *stream) end(r *reader) {
	st.res.checkUsage(st.total, st.hidden)
	st.res.TokenTimes = st.ticks.times()
	st.res.TokenTail = st.ticks.tail
	st.ticks.release(r)
	if st.keep {
		r.keepText(st.res, st.answer, st.reasoning)
		st.res.Calls = r.calls.List()
	}
	*st = stream{}
}

// feed handles the n bytes at the start of r's buffer, read at now: it
// stamps them and handles every event they complete. It reports false
// once the stream failed.
func (st *stream) feed(r *reader, n int, now time.Time) bool {
	res := st.res
	if res.FirstByte.IsZero() {
		res.FirstByte = now
	}
	res.Last = now
	r.parser.Feed(r.buf[:n])
	for ev, ok := r.parser.Next(); ok; ev, ok = r.parser.Next() {
		if st.event(ev, now); st.failed {
			return false
		}
	}
	if err := r.parser.Err(); err != nil {
		st.failed = true
		res.fail(trace.ErrTooLarge, CauseTooLarge, err.Error()+"; the rest was not read (raise the cap with --max-event-bytes, Config.MaxEventBytes)")
		return false
	}
	return true
}

// stop ends the stream on the read error err (io.EOF at a clean end): a
// stream already complete ignores it; otherwise the error, or a stream
// cut short, is recorded.
func (st *stream) stop(caller, ctx context.Context, r *reader, err error) {
	res := st.res
	switch {
	case st.done:
		return // the response was complete; what follows does not matter
	case err != io.EOF:
		class, cause := classify(caller, ctx, err)
		res.fail(class, cause, "reading response stream: "+reason(ctx, err).Error())
		return
	}
	if ev, ok := r.parser.Finish(); ok {
		if st.event(ev, res.Last); st.failed {
			return
		}
	}
	if !st.done && !st.finished {
		msg := "stream ended without [DONE] or finish_reason"
		if typedEvents(st.api) {
			msg = "stream ended without its final event (response.completed, response.incomplete, message_stop) or a stop reason"
		}
		res.fail(trace.ErrStream, CauseTruncated, msg)
	}
}

// tooLarge records a stream over limit bytes.
func (st *stream) tooLarge(limit int64) {
	st.res.fail(trace.ErrTooLarge, CauseTooLarge, tooLarge(limit).Error())
}

// event handles one event that arrived at now.
func (st *stream) event(ev openai.Event, now time.Time) {
	res := st.res
	switch {
	case st.done:
		return
	case ev.IsError():
		st.fail(CauseErrorEvent, "error event: "+openai.ErrorText(ev.Data, errExcerpt))
		return
	case len(ev.Name) > 0 && string(ev.Name) != "message" && !typedEvents(st.api):
		return // an event type chat and completions streams do not use
	case ev.Done():
		st.done = true
		return
	}
	var in openai.Info
	var err error
	if st.keep {
		in, st.answer, st.reasoning, err = openai.DecodeCalls(st.api, ev.Data, st.answer, st.reasoning, st.calls)
	} else {
		in, err = openai.DecodeAPI(st.api, ev.Data)
	}
	switch {
	case err != nil:
		st.fail(CauseMalformed, fmt.Sprintf("malformed stream data %q: %v", openai.Clip(string(ev.Data), dataExcerpt), err))
		return
	case in.IsError:
		st.fail(CauseErrorEvent, "error event: "+openai.ErrorText(ev.Data, errExcerpt))
		return
	}
	timed := true // the event's time is a token time
	if in.Token() && st.n > 1 {
		timed = st.countChoices(ev.Data)
	}
	if in.Token() {
		res.Chunks++
		if timed {
			st.ticks.add(now)
		}
		if res.FirstToken.IsZero() {
			res.FirstToken = now
		}
		if in.Answer && res.FirstAnswer.IsZero() {
			res.FirstAnswer = now
		}
		if in.ToolCall {
			res.ToolChunks++
			if res.FirstToolCall.IsZero() {
				res.FirstToolCall = now
			}
		}
		if st.cancelAfter > 0 && res.Chunks >= st.cancelAfter {
			st.failed = true
			res.fail(trace.ErrCancelled, CauseCancelled, fmt.Sprintf("gave up after %d tokens (an injected cancellation)", res.Chunks))
			return
		}
	}
	res.ToolCalls += in.ToolCalls
	if in.FinishReason != "" {
		res.FinishReason = in.FinishReason
		st.finished = true
	}
	if in.HasUsage {
		res.usage(&in, &st.hidden)
	}
	res.server(&in)
	st.done = st.done || in.End
}

// countChoices counts a token event of a request for several choices
// in each choice it carries a token for (Result.ChoiceTokens); an index
// the request did not ask for counts in none. It reports whether the
// event carries choice 0, whose events alone are the token times: the
// choices advance in lockstep, so the gaps between them are no latency.
func (st *stream) countChoices(data []byte) (first bool) {
	_, st.idx, _ = openai.DecodeChoices(st.api, data, st.idx[:0]) // decoded once already: no error
	for _, c := range st.idx {
		if c >= 0 && c < st.n {
			st.res.ChoiceTokens[c]++
		}
		first = first || c == 0
	}
	return first
}

// typedEvents reports whether api's streams name their events (the
// Responses and Messages APIs), so that named events are data, not
// events to skip.
func typedEvents(api string) bool {
	return api == openai.APIResponses || api == openai.APIMessages
}

// usage keeps the counts of a usage: each count the usage has (non-zero)
// replaces the one an earlier event gave, since a Messages stream gives
// the prompt at its start and the output at its end.
func (res *Result) usage(in *openai.Info, hidden *int) {
	if in.Usage.PromptTokens != 0 {
		res.PromptTokens = in.Usage.PromptTokens
	}
	if in.Usage.CompletionTokens != 0 {
		res.CompletionTokens = in.Usage.CompletionTokens
	}
	if in.HiddenReasoning != 0 {
		*hidden = in.HiddenReasoning
	}
}

// fail records an error found in the stream.
func (st *stream) fail(cause, msg string) {
	st.failed = true
	st.res.fail(trace.ErrStream, cause, msg)
}

// errTooLarge is a body over its limit.
type errTooLarge int64

func (e errTooLarge) Error() string {
	return fmt.Sprintf("response body larger than %d bytes (the response cap); the rest was not read", int64(e))
}

// tooLarge returns the error of a body over limit bytes.
func tooLarge(limit int64) error { return errTooLarge(limit) }

// readAll reads body to its end, or to limit bytes (0: no limit), into r's
// buffer, growing it, and stamps the first and last reads. It returns the
// bytes and the read error other than EOF (an errTooLarge past the limit).
func readAll(body io.Reader, r *reader, limit int64, res *Result) ([]byte, error) {
	b := r.buf[:0]
	defer func() {
		if cap(b) > cap(r.buf) && cap(b) <= maxKeptBuf {
			r.buf = b[:cap(b)] // keep a moderately grown buffer in the pool
		}
	}()
	for {
		if len(b) == cap(b) {
			b = grow(b, limit)
		}
		n, err := body.Read(b[len(b):cap(b)])
		now := r.clock.at(time.Now())
		if n > 0 {
			if res.FirstByte.IsZero() {
				res.FirstByte = now
			}
			res.Last = now
			b = b[:len(b)+n]
		}
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return b, err
		case limit > 0 && int64(len(b)) > limit:
			return b[:limit], tooLarge(limit)
		}
	}
}

// grow returns b with room for more: twice its capacity, but no more
// than limit and a byte in all (limit > 0), the byte that says the body
// is past the limit.
func grow(b []byte, limit int64) []byte {
	n := max(2*cap(b), 4096)
	if limit > 0 && int64(n) >= limit {
		n = int(limit + 1)
	}
	nb := make([]byte, len(b), n)
	copy(nb, b)
	return nb
}

// readWhole reads a non-streamed 2xx response of at most limit bytes (0:
// no limit): every time is the arrival of the whole body. With
// req.KeepText, the text is stored in res.
func readWhole(caller, ctx context.Context, body io.Reader, r *reader, res *Result, req *Request, limit int64) {
	b, err := readAll(body, r, limit, res)
	var big errTooLarge
	switch {
	case errors.As(err, &big):
		res.fail(trace.ErrTooLarge, CauseTooLarge, err.Error())
		return
	case err != nil:
		class, cause := classify(caller, ctx, err)
		res.fail(class, cause, "reading response body: "+reason(ctx, err).Error())
		return
	}
	var in openai.Info
	if req.KeepText {
		var answer, reasoning []byte
		r.calls.Reset()
		in, answer, reasoning, err = openai.DecodeCalls(req.API, b, r.answer[:0], r.reasoning[:0], &r.calls)
		r.keepText(res, answer, reasoning)
		res.Calls = r.calls.List()
	} else {
		in, err = openai.DecodeAPI(req.API, b)
	}
	switch {
	case err != nil:
		res.fail(trace.ErrStream, CauseMalformed, fmt.Sprintf("malformed response body %q: %v", openai.Clip(string(b), dataExcerpt), err))
		return
	case in.IsError:
		res.fail(trace.ErrStream, CauseErrorEvent, "error in response: "+openai.ErrorText(b, errExcerpt))
		return
	}
	res.Whole = true
	if in.Token() {
		res.Chunks = 1
		res.FirstToken = res.Last
		res.TokenTimes = append(res.TokenTimes, res.Last)
		if in.Answer {
			res.FirstAnswer = res.Last
		}
		if in.ToolCall {
			res.FirstToolCall, res.ToolChunks = res.Last, 1
		}
	}
	res.ToolCalls = in.ToolCalls
	res.FinishReason = in.FinishReason
	res.PromptTokens = in.Usage.PromptTokens
	res.CompletionTokens = in.Usage.CompletionTokens
	res.Embeddings, res.Scores = in.Embeddings, in.Scores
	res.server(&in)
	res.checkUsage(int64(len(b)), in.HiddenReasoning)
	if want := inputs(req); req.API == openai.APIEmbeddings && in.Embeddings != want {
		res.fail(trace.ErrStream, CauseMalformed, fmt.Sprintf("the response holds %d embeddings for %d inputs", in.Embeddings, want))
	}
	if why := scoresWrong(req, in.Scores); why != "" {
		res.fail(trace.ErrStream, CauseMalformed, why)
	}
}

// scoresWrong says why a rerank or score response holding n scores does
// not answer req, or "" when it does: a score request gets one per
// document, a rerank one at least one and at most one per document.
func scoresWrong(req *Request, n int) string {
	docs := len(req.Documents)
	switch {
	case req.API == openai.APIScore && n != docs:
		return fmt.Sprintf("the response holds %d scores for %d documents", n, docs)
	case req.API == openai.APIRerank && (n == 0 || n > docs):
		return fmt.Sprintf("the response holds %d results for %d documents", n, docs)
	}
	return ""
}

// inputs is the number of texts an embeddings request sends.
func inputs(req *Request) int { return max(len(req.Inputs), 1) }

// keepText stores the text in res and hands its buffers back to r for the
// next request, unless they grew large.
func (r *reader) keepText(res *Result, answer, reasoning []byte) {
	res.Text, res.Reasoning = string(answer), string(reasoning)
	if cap(answer) <= maxKeptBuf {
		r.answer = answer[:0]
	}
	if cap(reasoning) <= maxKeptBuf {
		r.reasoning = reasoning[:0]
	}
}

// readFailure reads the start of a non-2xx body for its message, and the
// wait asked for in the header h.
func readFailure(body io.Reader, h http.Header, r *reader, res *Result) {
	res.RetryAfter = retryAfter(h.Get("Retry-After"), time.Now())
	b, _ := readAll(body, r, maxErrBody, res)
	msg := fmt.Sprintf("HTTP %d", res.Status)
	if text := openai.ErrorText(b, errExcerpt); text != "" {
		msg += ": " + text
	}
	res.fail(trace.ErrHTTP, CauseStatus, msg)
}
