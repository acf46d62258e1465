package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"surge/openai"
)

// request is a decoded, validated request of one of the APIs.
type request struct {
	api          string // one of openai.APIs
	model        string
	texts        []string  // prompt text: the messages' contents, or the prompt
	images       []picture // images of the messages, each after the texts before its own message's end
	ids          []int     // a pre-tokenized completions prompt; used instead of texts
	maxTokens    int       // 0 when the client gave none
	minTokens    int
	ignoreEOS    bool
	stream       bool
	includeUsage bool
	reasoning    int  // output tokens to stream as reasoning before the answer
	inputs       int  // an embeddings request's inputs, each embedded apart
	base64       bool // an embeddings request wants its vectors as base64
	// pairs are the query and document pairs a rerank or score request
	// scores; topN, when positive, how many of the best a rerank answer
	// holds, and returnDocs whether it holds their texts.
	pairs      []pair
	topN       int
	returnDocs bool
	// tool is the name of the first tool the request defines, which a
	// reply calling a tool calls; "" when it defines none.
	tool string
	options
}

// chat reports whether r is a chat request.
func (r *request) chat() bool { return r.api == openai.APIChat }

// wireRequest is the JSON body as sent, openai's server-side request type;
// a type of this package so that its fields can be read by its methods.
type wireRequest openai.ServerRequest

// decodeRequest parses and validates body as a request of api. Its errors
// are *apiError with status 400.
func decodeRequest(body []byte, api string) (request, error) {
	switch api {
	case openai.APIResponses:
		return decodeResponses(body)
	case openai.APIMessages:
		return decodeMessages(body)
	case openai.APIEmbeddings:
		return decodeEmbeddings(body)
	case openai.APIRerank:
		return decodeRerank(body)
	case openai.APIScore:
		return decodeScore(body)
	}
	var w wireRequest
	if err := decodeJSON(body, &w); err != nil {
		return request{}, err
	}
	r := request{api: api, model: w.Model, ignoreEOS: w.IgnoreEOS, stream: w.Stream}
	if w.StreamOptions != nil {
		if !w.Stream {
			return request{}, badRequest("stream_options is only allowed when stream is true")
		}
		r.includeUsage = w.StreamOptions.IncludeUsage
	}
	if err := w.lengths(&r); err != nil {
		return request{}, err
	}
	if err := w.chatOptions(&r); err != nil {
		return request{}, err
	}
	if w.Model == "" {
		return request{}, badRequest("model is required")
	}
	if r.chat() {
		if err := r.tools(w.Tools); err != nil {
			return request{}, err
		}
		return r, w.chatPrompt(&r)
	}
	return r, w.completionPrompt(&r)
}

// tools reads a request's tools: their definitions, as sent, are the
// start of the prompt (templates render them into the system prompt), and
// the first one's name is the function a tool-calling reply calls. A chat
// tool names its function under function, a Responses or Messages tool
// beside its type.
func (r *request) tools(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var tools []struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &tools); err != nil {
		return badRequest("tools must be an array of function tools")
	}
	for i, t := range tools {
		switch {
		case r.chat() && t.Function.Name == "":
			return badRequest(fmt.Sprintf("tools[%d].function.name is required", i))
		case !r.chat() && t.Name == "":
			return badRequest(fmt.Sprintf("tools[%d].name is required", i))
		}
	}
	if len(tools) > 0 {
		r.tool = tools[0].Function.Name
		if !r.chat() {
			r.tool = tools[0].Name
		}
		r.texts = append(r.texts, string(raw))
	}
	return nil
}

// decodeJSON decodes body, one JSON value, into v.
func decodeJSON(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return badRequest(fmt.Sprintf("invalid JSON body: %v", err))
	}
	if dec.More() {
		return badRequest("invalid JSON body: data after the top-level value")
	}
	return nil
}

// lengths reads max_tokens (or max_completion_tokens), min_tokens and
// surge_reasoning_tokens.
func (w *wireRequest) lengths(r *request) error {
	mt := w.MaxTokens
	if mt == nil {
		mt = w.MaxCompletionTokens
	}
	return r.lengths("max_tokens", mt, w.MinTokens, w.SurgeReasoningTokens)
}

// lengths checks and sets the output cap (the member named cap of the
// request's API), min_tokens and surge_reasoning_tokens; nil is absent.
func (r *request) lengths(cap string, mt, minTokens, reasoning *int) error {
	if mt != nil {
		if *mt < 1 {
			return badRequest(fmt.Sprintf("%s must be at least 1, got %d.", cap, *mt))
		}
		r.maxTokens = *mt
	}
	if minTokens != nil {
		if *minTokens < 0 {
			return badRequest(fmt.Sprintf("min_tokens must be greater than or equal to 0, got %d.", *minTokens))
		}
		if r.maxTokens > 0 && *minTokens > r.maxTokens {
			return badRequest(fmt.Sprintf("min_tokens must be less than or equal to %s=%d, got %d.", cap, r.maxTokens, *minTokens))
		}
		r.minTokens = *minTokens
	}
	if reasoning != nil {
		if *reasoning < 0 {
			return badRequest(fmt.Sprintf("surge_reasoning_tokens must be at least 0, got %d.", *reasoning))
		}
		r.reasoning = *reasoning
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
		text, pics, err := contentParts(m.Content, len(r.texts)+1, chatImage, "text")
		if err != nil {
			return badRequest(fmt.Sprintf("messages[%d].content: %v", i, err))
		}
		r.texts, r.images = append(r.texts, text), append(r.images, pics...)
		if err := r.chatCalls(m.ToolCalls); err != nil {
			return badRequest(fmt.Sprintf("messages[%d].tool_calls: %v", i, err))
		}
	}
	return nil
}

// chatCalls adds the names and arguments of an assistant message's tool
// calls to the prompt, as a template renders them.
func (r *request) chatCalls(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var calls []struct {
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &calls); err != nil {
		return errors.New("must be an array of tool calls, each a function with a name and string arguments")
	}
	for _, c := range calls {
		r.texts = append(r.texts, c.Function.Name, c.Function.Arguments)
	}
	return nil
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
