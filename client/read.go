package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"surge/openai"
)

// Limits on what is kept of a response.
const (
	maxErrBody  = 64 << 10 // bytes of a non-2xx body read for its message
	errExcerpt  = 256      // bytes of an error message kept in Result.Err
	dataExcerpt = 96       // bytes of malformed data quoted in Result.Err
)

// maxKeptBuf is the capacity above which a text buffer is not kept in the
// pool for the next request.
const maxKeptBuf = 4 * readBufSize

// stream is the state of one event stream being read.
type stream struct {
	res      *Result
	finished bool // a finish_reason was seen
	done     bool // "[DONE]" was seen: the rest is drained and ignored
	failed   bool // an error in the stream was recorded

	keep              bool   // collect the text (Request.KeepText)
	answer, reasoning []byte // the text so far, when keep

	cancelAfter int // give up after this many token events (0: never)
}

// readStream reads an event stream with r's buffer, stamping each read with
// the time it returned and every event the read completed with that time.
// With keep, the text is collected in r's text buffers and stored in res
// when reading ends, however it ends. Past limit bytes (0: no limit) it
// stops with class "too_large", so neither the parser's pending event nor
// the token times can grow without bound.
func readStream(caller, ctx context.Context, body io.Reader, r *reader, res *Result, req *Request, limit int64) {
	st := stream{res: res, keep: req.KeepText, cancelAfter: req.CancelAfterTokens}
	if st.keep {
		st.answer, st.reasoning = r.answer[:0], r.reasoning[:0]
		defer func() { r.keepText(res, st.answer, st.reasoning) }()
	}
	r.parser.Reset()
	pace := newPacer(req, len(r.buf))
	var total int64
	for {
		n, err := body.Read(r.buf[:pace.size])
		now := time.Now()
		if total += int64(n); limit > 0 && total > limit {
			res.fail(errBig, CauseTooLarge, tooLarge(limit).Error())
			return
		}
		if n > 0 && !st.done {
			if res.FirstByte.IsZero() {
				res.FirstByte = now
			}
			res.Last = now
			r.parser.Feed(r.buf[:n])
			for ev, ok := r.parser.Next(); ok; ev, ok = r.parser.Next() {
				if st.event(ev, now); st.failed {
					return
				}
			}
		}
		if err == nil && !pace.wait(ctx, n, !res.FirstToken.IsZero()) {
			err = ctx.Err()
		}
		if err == nil {
			continue
		}
		if st.done {
			return // the response was complete; what follows does not matter
		}
		if err != io.EOF {
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
			res.fail(errStream, CauseTruncated, "stream ended without [DONE] or finish_reason")
		}
		return
	}
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
	case len(ev.Name) > 0 && string(ev.Name) != "message":
		return // an event type OpenAI streams do not use
	case ev.Done():
		st.done = true
		return
	}
	var in openai.Info
	var err error
	if st.keep {
		in, st.answer, st.reasoning, err = openai.DecodeText(ev.Data, st.answer, st.reasoning)
	} else {
		in, err = openai.Decode(ev.Data)
	}
	switch {
	case err != nil:
		st.fail(CauseMalformed, fmt.Sprintf("malformed stream data %q: %v", openai.Clip(string(ev.Data), dataExcerpt), err))
		return
	case in.IsError:
		st.fail(CauseErrorEvent, "error event: "+openai.ErrorText(ev.Data, errExcerpt))
		return
	}
	if in.Token() {
		res.Chunks++
		res.TokenTimes = append(res.TokenTimes, now)
		if res.FirstToken.IsZero() {
			res.FirstToken = now
		}
		if in.Answer && res.FirstAnswer.IsZero() {
			res.FirstAnswer = now
		}
		if st.cancelAfter > 0 && res.Chunks >= st.cancelAfter {
			st.failed = true
			res.fail(errCancelled, CauseCancelled, fmt.Sprintf("gave up after %d tokens (an injected cancellation)", res.Chunks))
			return
		}
	}
	if in.FinishReason != "" {
		res.FinishReason = in.FinishReason
		st.finished = true
	}
	if in.HasUsage {
		res.PromptTokens = in.Usage.PromptTokens
		res.CompletionTokens = in.Usage.CompletionTokens
	}
	res.server(&in)
}

// fail records an error found in the stream.
func (st *stream) fail(cause, msg string) {
	st.failed = true
	st.res.fail(errStream, cause, msg)
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
		if cap(b) > cap(r.buf) && cap(b) <= 4*readBufSize {
			r.buf = b[:cap(b)] // keep a moderately grown buffer in the pool
		}
	}()
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := body.Read(b[len(b):cap(b)])
		now := time.Now()
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

// readWhole reads a non-streamed 2xx response of at most limit bytes (0:
// no limit): every time is the arrival of the whole body. With keep, the
// text is stored in res.
func readWhole(caller, ctx context.Context, body io.Reader, r *reader, res *Result, keep bool, limit int64) {
	b, err := readAll(body, r, limit, res)
	var big errTooLarge
	switch {
	case errors.As(err, &big):
		res.fail(errBig, CauseTooLarge, err.Error())
		return
	case err != nil:
		class, cause := classify(caller, ctx, err)
		res.fail(class, cause, "reading response body: "+reason(ctx, err).Error())
		return
	}
	var in openai.Info
	if keep {
		var answer, reasoning []byte
		in, answer, reasoning, err = openai.DecodeText(b, r.answer[:0], r.reasoning[:0])
		r.keepText(res, answer, reasoning)
	} else {
		in, err = openai.Decode(b)
	}
	switch {
	case err != nil:
		res.fail(errStream, CauseMalformed, fmt.Sprintf("malformed response body %q: %v", openai.Clip(string(b), dataExcerpt), err))
		return
	case in.IsError:
		res.fail(errStream, CauseErrorEvent, "error in response: "+openai.ErrorText(b, errExcerpt))
		return
	}
	if in.Token() {
		res.Chunks = 1
		res.FirstToken = res.Last
		res.TokenTimes = append(res.TokenTimes, res.Last)
		if in.Answer {
			res.FirstAnswer = res.Last
		}
	}
	res.FinishReason = in.FinishReason
	res.PromptTokens = in.Usage.PromptTokens
	res.CompletionTokens = in.Usage.CompletionTokens
	res.server(&in)
}

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

// readFailure reads the start of a non-2xx body for its message.
func readFailure(body io.Reader, r *reader, res *Result) {
	b, _ := readAll(body, r, maxErrBody, res)
	msg := fmt.Sprintf("HTTP %d", res.Status)
	if text := openai.ErrorText(b, errExcerpt); text != "" {
		msg += ": " + text
	}
	res.fail(errHTTP, CauseStatus, msg)
}
