package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"surge/openai"
)

// request is a decoded, validated chat or completions request.
type request struct {
	chat         bool
	model        string
	texts        []string // prompt text: the messages' contents, or the prompt
	ids          []int    // a pre-tokenized completions prompt; used instead of texts
	maxTokens    int      // 0 when the client gave none
	minTokens    int
	ignoreEOS    bool
	stream       bool
	includeUsage bool
	reasoning    int // output tokens to stream as reasoning before the answer
}

// wireRequest is the JSON body as sent, openai's server-side request type;
// a type of this package so that its fields can be read by its methods.
type wireRequest openai.ServerRequest

// decodeRequest parses and validates body as a chat (chat true) or
// completions request. Its errors are *apiError with status 400.
func decodeRequest(body []byte, chat bool) (request, error) {
	var w wireRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&w); err != nil {
		return request{}, badRequest(fmt.Sprintf("invalid JSON body: %v", err))
	}
	if dec.More() {
		return request{}, badRequest("invalid JSON body: data after the top-level value")
	}
	r := request{chat: chat, model: w.Model, ignoreEOS: w.IgnoreEOS, stream: w.Stream}
	if w.StreamOptions != nil {
		if !w.Stream {
			return request{}, badRequest("stream_options is only allowed when stream is true")
		}
		r.includeUsage = w.StreamOptions.IncludeUsage
	}
	if err := w.lengths(&r); err != nil {
		return request{}, err
	}
	if w.Model == "" {
		return request{}, badRequest("model is required")
	}
	if chat {
		return r, w.chatPrompt(&r)
	}
	return r, w.completionPrompt(&r)
}

// lengths reads max_tokens (or max_completion_tokens), min_tokens and n.
func (w *wireRequest) lengths(r *request) error {
	mt := w.MaxTokens
	if mt == nil {
		mt = w.MaxCompletionTokens
	}
	if mt != nil {
		if *mt < 1 {
			return badRequest(fmt.Sprintf("max_tokens must be at least 1, got %d.", *mt))
		}
		r.maxTokens = *mt
	}
	if w.MinTokens != nil {
		if *w.MinTokens < 0 {
			return badRequest(fmt.Sprintf("min_tokens must be greater than or equal to 0, got %d.", *w.MinTokens))
		}
		if r.maxTokens > 0 && *w.MinTokens > r.maxTokens {
			return badRequest(fmt.Sprintf("min_tokens must be less than or equal to max_tokens=%d, got %d.", r.maxTokens, *w.MinTokens))
		}
		r.minTokens = *w.MinTokens
	}
	if w.N != nil && *w.N != 1 {
		return badRequest(fmt.Sprintf("n must be 1 on this server, got %d.", *w.N))
	}
	if w.SurgeReasoningTokens != nil {
		if *w.SurgeReasoningTokens < 0 {
			return badRequest(fmt.Sprintf("surge_reasoning_tokens must be at least 0, got %d.", *w.SurgeReasoningTokens))
		}
		r.reasoning = *w.SurgeReasoningTokens
	}
	return nil
}

// chatPrompt collects the messages' text.
func (w *wireRequest) chatPrompt(r *request) error {
	if len(w.Messages) == 0 {
		return badRequest("messages is required and must not be empty")
	}
	for i, m := range w.Messages {
		if m.Role == "" {
			return badRequest(fmt.Sprintf("messages[%d].role is required", i))
		}
		text, err := messageText(m.Content)
		if err != nil {
			return badRequest(fmt.Sprintf("messages[%d].content: %v", i, err))
		}
		r.texts = append(r.texts, text)
	}
	return nil
}

// messageText reads a content: a string, null, or an array of parts whose
// text parts are concatenated.
func messageText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] == '"' {
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []openai.ContentPart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("must be a string or an array of content parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type != "text" {
			return "", fmt.Errorf("content part type %q is not supported", p.Type)
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// completionPrompt reads the prompt: a string, an array of one string, or
// an array of token IDs.
func (w *wireRequest) completionPrompt(r *request) error {
	raw := bytes.TrimSpace(w.Prompt)
	if len(raw) == 0 || string(raw) == "null" {
		return badRequest("prompt is required")
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return badRequest(fmt.Sprintf("prompt: %v", err))
		}
		r.texts = []string{s}
		return nil
	}
	var strs []string
	if err := json.Unmarshal(raw, &strs); err == nil {
		if len(strs) != 1 {
			return badRequest(fmt.Sprintf("prompt: batches of %d prompts are not supported, send one", len(strs)))
		}
		r.texts = strs
		return nil
	}
	var ids []int
	if err := json.Unmarshal(raw, &ids); err != nil {
		return badRequest("prompt must be a string, an array of one string or an array of token IDs")
	}
	if len(ids) == 0 {
		return badRequest("prompt must not be empty")
	}
	r.ids = ids
	return nil
}

// apiError is an error the client caused, answered with status and vLLM's
// error body.
type apiError struct {
	status int
	typ    string
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(msg string) *apiError {
	return &apiError{status: http.StatusBadRequest, typ: "BadRequestError", msg: msg}
}

// writeError writes e as vLLM does:
// {"object":"error","message":…,"type":…,"param":null,"code":status}.
func writeError(w http.ResponseWriter, e *apiError) {
	body, _ := json.Marshal(openai.ObjectError{Object: "error", Message: e.msg, Type: e.typ, Code: e.status})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	w.Write(body)
}
