package virtual

import (
	"time"

	"surge/trace"
)

// flight is one request inside an engine, from arrival to its last token.
// Its index in runner.flights is the engine request ID.
type flight struct {
	sr      *sessionRun // nil when the slot is free
	turn    int
	replica int
	model   string
	warmup  bool
	arrival time.Duration // intended = sent
	prompt  int           // prompt tokens as the engine sees them
	input   int           // prompt tokens by the trace's counts, corrected for live replies (see inputTokens)
	out     int           // output tokens the engine generates
	finish  string        // finish reason
	cached  int           // prompt tokens found in the prefix cache
	reason  int           // the turn's ReasoningTokens, at hand for every token
	inputs  int           // texts an embeddings request embeds; 0 for other APIs
	// documents are the documents a rerank or score request scores; 0
	// for other APIs.
	documents int
	images    int      // images the request carries, its ancestors' among them
	imageTk   int      // their tokens, of prompt
	hashes    []uint64 // the prompt's block hashes, for its other choices
	copy      float64  // the turn's copy fraction, for its other choices

	// A request for several choices: choices is its n; kids counts its
	// other choices still generating, each a flight whose parent is this
	// one's ID + 1 (0: none) and choice its index; done says choice 0
	// has finished; choiceTokens and kidsLast are the choices' tokens and
	// the latest of their last tokens.
	choices, kids int
	parent        uint64
	choice        int
	done          bool
	choiceTokens  []int
	kidsLast      time.Duration

	got         int           // tokens received so far
	first, last time.Duration // first and latest token times
	answer      time.Duration // first answer token, after the reasoning; 0 if none yet
	lastUS      int64         // us(last − arrival), for the next gap
	itl         []int64       // the first trace.MaxITLGaps gaps
	tail        *trace.GapTail
}

// token notes a token event at time t; tokens is the count so far. The
// gaps are differences of rounded offsets from the send, as the driver
// computes them, so they sum exactly to the rounded streaming time. A
// speculative step brings several tokens at once, each in its own chunk
// as the built-in server streams them: the first after the gap since the
// last step, the others 0 after it.
func (f *flight) token(t time.Duration, tokens int) {
	if f.got <= f.reason && tokens > f.reason {
		f.answer = t
	}
	cur := us(t - f.arrival)
	for n := f.got + 1; n <= tokens; n++ {
		if n == 1 {
			f.first = t
		} else {
			f.gap(cur - f.lastUS)
		}
		f.last, f.lastUS = t, cur
	}
	f.got = tokens
}

// gap notes one inter-token gap of us microseconds.
func (f *flight) gap(d int64) {
	if len(f.itl) < trace.MaxITLGaps {
		f.itl = append(f.itl, d)
		return
	}
	if f.tail == nil {
		f.tail = &trace.GapTail{}
	}
	f.tail.Add(d)
}

// base fills in what every record of f has: identity, schedule, the
// requested token counts and the prompt's length as sent.
func (f *flight) base() trace.Record {
	s := f.sr.s
	t := &s.Turns[f.turn]
	at := us(f.arrival)
	return trace.Record{
		Client: s.Client, Session: s.Index, Turn: f.turn, Model: f.model, Warmup: f.warmup,
		Style: t.Style, Language: t.Language,
		IntendedUS: at, SentUS: at,
		InputTokens: f.input, ClientInputTokens: f.prompt - f.imageTk, OutputTokens: t.OutputTokens,
		Images: f.images, ImageTokens: f.imageTk,
		ReasoningTokens: t.ReasoningTokens, WaitUS: t.WaitUS, ToolCalls: t.ToolCalls,
		DeadlineUS: s.DeadlineUS, Inputs: f.inputs, Documents: f.documents,
	}
}

// pooled reports whether f is an embeddings, rerank or score request,
// answered whole after its prefill with no tokens.
func (f *flight) pooled() bool { return f.inputs > 0 || f.documents > 0 }

// record is f's record once its last token is out: a 200 streaming
// response of one token per chunk, or for an embeddings, rerank or score
// request a whole answer at the end of its one step, with no tokens.
func (f *flight) record() trace.Record {
	rec := f.base()
	if f.pooled() {
		rec.E2EUS = f.lastUS
		rec.FirstByteUS = rec.E2EUS
		rec.ServerInputTokens, rec.CachedTokens = f.prompt, f.cached
		rec.NotStreamed = true
		rec.Status = 200
		return rec
	}
	ttft := us(f.first - f.arrival)
	rec.FirstByteUS, rec.TTFTUS, rec.TTFOUS = ttft, ttft, f.ttfo()
	rec.E2EUS = f.lastUS
	rec.ITLUS, rec.ITLTail = f.itl, f.tail
	rec.ServerInputTokens, rec.ServerOutputTokens = f.prompt, f.out
	rec.CachedTokens = f.cached
	rec.Chunks = f.out
	rec.Status = 200
	rec.FinishReason = f.finish
	f.choiceRecord(&rec)
	return rec
}

// rejected is the record of a request the server refused with 400 and msg,
// answered at once.
func (f *flight) rejected(msg string) trace.Record {
	rec := f.base()
	rec.Status = 400
	rec.ErrorClass = trace.ErrHTTP
	rec.Error = "HTTP 400: " + msg
	return rec
}

// cancelledMsg is the Error of every request cut off by an interrupt.
const cancelledMsg = "interrupted before the response ended"

// cancelled is the record of f cut off by an interrupt at now, as the
// driver records a stream it cancels: status 200 (a streaming server sends
// its headers at once), the tokens received so far, and the end at the
// last byte received, or at now when none was. Token counts and cached
// tokens arrive with the usage at the end of a stream, so they are absent.
func (f *flight) cancelled(now time.Duration) trace.Record {
	rec := f.base()
	rec.Status = 200
	rec.E2EUS = us(now - f.arrival)
	if f.got > 0 {
		ttft := us(f.first - f.arrival)
		rec.FirstByteUS, rec.TTFTUS, rec.TTFOUS = ttft, ttft, f.ttfo()
		rec.E2EUS = f.lastUS
		rec.ITLUS, rec.ITLTail = f.itl, f.tail
		rec.Chunks = f.got
	}
	rec.ErrorClass = trace.ErrCancelled
	rec.Error = cancelledMsg
	return rec
}

// ttfo is the time to the first answer token, 0 when the request has
// none yet (all of its output so far was reasoning).
func (f *flight) ttfo() int64 {
	if f.answer == 0 {
		return 0
	}
	return us(f.answer - f.arrival)
}

// us rounds d to the nearest whole microsecond (halves away from zero),
// as d.Round(time.Microsecond) does short of ±292 years, without its
// branches on every token:
//
//	us(d) = ⌊(d + 500 ns) / 1 µs⌋ for d ≥ 0,   −us(−d) below.
func us(d time.Duration) int64 {
	if d < 0 {
		return -int64((-d + 500) / time.Microsecond)
	}
	return int64((d + 500) / time.Microsecond)
}
