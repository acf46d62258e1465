package driver

import (
	"cmp"
	"time"

	"surge/client"
	"surge/trace"
)

// record maps the client's result for a to a record. Offsets count from
// start; latencies from the send instant
//
//	base = res.Sent, or the instant Client.Do was called if the request
//	       never had a connection (a refused one),
//
// and the end is res.Last, or the instant Do returned if no byte came back,
// so a failed request still says how long it took to fail. Every value is
// rounded to the nearest microsecond.
func (a *attempt) record(start time.Time, res *client.Result) trace.Record {
	base := orElse(res.Sent, a.called)
	last := orElse(res.Last, a.returned)
	rec := a.base()
	if a.stormed {
		rec.Fault = trace.FaultStorm
	}
	rec.SentUS = us(base.Sub(start))
	rec.FirstByteUS = after(base, res.FirstByte)
	rec.TTFTUS = after(base, res.FirstToken)
	rec.TTFOUS = after(base, res.FirstAnswer)
	rec.TTFTCUS = after(base, res.FirstToolCall)
	rec.ServerToolCalls, rec.ToolCallChunks = res.ToolCalls, res.ToolChunks
	if ts := a.session.Tools; ts != nil && len(ts.Tools) > 0 {
		rec.ToolSchemaTokens = ts.Tokens
	}
	rec.Images, rec.ImageTokens = a.images.images, a.images.tokens
	rec.E2EUS = us(last.Sub(base))
	rec.ITLUS = gaps(base, res.TokenTimes)
	rec.ITLTail = res.TokenTail
	rec.ClientInputTokens = a.clientTokens
	rec.ServerInputTokens = res.PromptTokens
	rec.ServerOutputTokens = res.CompletionTokens
	rec.Chunks = res.Chunks
	rec.NotStreamed = res.Whole
	rec.CachedTokens = res.CachedTokens
	rec.UsageDropped = res.UsageDropped
	rec.ServerQueueUS = us(res.ServerQueue)
	rec.ServerTTFTUS = us(res.ServerTTFT)
	rec.ServerE2EUS = us(res.ServerE2E)
	rec.Status = res.Status
	rec.Retries, rec.Resends = a.retries, a.resends
	rec.FinishReason = res.FinishReason
	rec.ErrorClass = res.ErrClass
	rec.Error = res.Err
	return rec
}

// dropped is the record of a, shed without being sent: no send time, no
// latencies, and the reason in Error.
func (a *attempt) dropped(why string) trace.Record {
	rec := a.base()
	rec.ErrorClass = trace.ErrDropped
	rec.Error = why
	return rec
}

// base fills in what every record of a has: identity, schedule and the
// requested token counts.
func (a *attempt) base() trace.Record {
	t := &a.session.Turns[a.turn]
	var fault string
	if t.Fault != nil {
		fault = t.Fault.Kind
	}
	return trace.Record{
		Fault:        fault,
		Client:       a.session.Client,
		Session:      a.session.Index,
		Turn:         a.turn,
		Model:        a.model,
		Warmup:       a.warmup,
		Style:        t.Style,
		Language:     t.Language,
		IntendedUS:   us(a.intended),
		QueueUS:      us(a.queue),
		Inputs:       a.inputs,
		Documents:    a.documents,
		InputTokens:  cmp.Or(a.inputTokens, t.InputTokens),
		OutputTokens: t.OutputTokens,

		ReasoningTokens: t.ReasoningTokens,
		WaitUS:          t.WaitUS,
		ToolCalls:       t.ToolCalls,
		DeadlineUS:      a.session.DeadlineUS,
	}
}

// gaps returns the inter-token latencies of times, in µs. Each time is
// rounded as an offset from base before differencing,
//
//	ITLᵢ = round(tᵢ₊₁ − base) − round(tᵢ − base),
//
// so every gap is within 1 µs of the true one and the gaps sum exactly to
// round(t_last − base) − round(t_first − base), the rounded streaming time.
func gaps(base time.Time, times []time.Time) []int64 {
	if len(times) < 2 {
		return nil
	}
	out := make([]int64, len(times)-1)
	prev := us(times[0].Sub(base))
	for i, t := range times[1:] {
		cur := us(t.Sub(base))
		out[i] = cur - prev
		prev = cur
	}
	return out
}

// after returns t − base in µs, or 0 when t did not happen.
func after(base, t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return us(t.Sub(base))
}

// orElse returns t, or def when t is zero.
func orElse(t, def time.Time) time.Time {
	if t.IsZero() {
		return def
	}
	return t
}

// us rounds d to the nearest whole microsecond (halves away from zero).
func us(d time.Duration) int64 {
	return int64(d.Round(time.Microsecond) / time.Microsecond)
}
