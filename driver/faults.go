package driver

import (
	"context"
	"strings"
	"time"

	"surge/client"
	"surge/openai"
	"surge/trace"
)

// unknownModel is the model an invalid_params fault asks for: one no
// server serves.
const unknownModel = "surge-no-such-model"

// inject makes req carry the fault of its turn, f (nil: none), as a
// workload's faults block asks: a broken or refused request, or one read
// badly on purpose. It returns the context the request must be sent with,
// which a timed cancellation ends, and a function releasing it.
func inject(ctx context.Context, req *client.Request, f *trace.Fault) (context.Context, context.CancelFunc) {
	if f == nil {
		return ctx, func() {}
	}
	switch f.Kind {
	case trace.FaultEmptyPrompt:
		setPrompt(req, "")
	case trace.FaultOverContext:
		setPrompt(req, filler(f.Tokens))
	case trace.FaultMalformedJSON:
		req.Malformed = true
	case trace.FaultInvalidParams:
		if f.Param == "model" {
			req.Model = unknownModel
		} else {
			req.MaxTokens, req.MinTokens = -1, 0
		}
	case trace.FaultChurn:
		req.NewConn = true
	case trace.FaultCancel:
		req.CancelAfterTokens = f.Tokens
		if f.AfterUS > 0 {
			ctx, cancel := context.WithCancel(ctx)
			t := time.AfterFunc(time.Duration(f.AfterUS)*time.Microsecond, cancel)
			return ctx, func() { t.Stop(); cancel() }
		}
	case trace.FaultSlowReader:
		req.ReadRate = f.BytesPerS
	case trace.FaultStall:
		req.Stall = time.Duration(f.StallUS) * time.Microsecond
	}
	return ctx, func() {}
}

// setPrompt replaces the newest user message of req (or its prompt) with
// text.
func setPrompt(req *client.Request, text string) {
	if len(req.Messages) == 0 {
		req.Prompt = text
		return
	}
	msgs := append([]openai.Message(nil), req.Messages...) // the conversation's own stays intact
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			msgs[i].Content = text
			break
		}
	}
	req.Messages = msgs
}

// filler is a prompt of about n tokens: " lorem" is one token in the
// BPE tokenizers of common models, so n of them make n tokens, give or
// take the chat template.
func filler(n int) string {
	return strings.Repeat(" lorem", n)
}
