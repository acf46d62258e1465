package openai

import "encoding/json"

// ResponsesRequest is the body of a request to OpenAI's Responses API
// (/v1/responses) as a client sends it. Input holds the conversation as
// role and content messages, a system prompt first (the API takes role
// "system" in input as it does in chat). Store false asks the server not
// to keep the response for later retrieval, which a benchmark never does.
// MinTokens and IgnoreEOS are vLLM's extensions, SurgeReasoningTokens the
// built-in engine's, as in Request. Zero fields are omitted.
type ResponsesRequest struct {
	Model           string    `json:"model,omitempty"`
	Input           []Message `json:"input,omitempty"`
	MaxOutputTokens int       `json:"max_output_tokens,omitempty"`
	MinTokens       int       `json:"min_tokens,omitempty"`
	IgnoreEOS       bool      `json:"ignore_eos,omitempty"`
	Temperature     *float64  `json:"temperature,omitempty"`
	TopP            *float64  `json:"top_p,omitempty"`
	Stream          bool      `json:"stream,omitempty"`
	Store           *bool     `json:"store,omitempty"`
	// Tools, ToolChoice and ParallelToolCalls are as in Request, each
	// tool in the Responses API's shape.
	Tools             []ResponsesTool `json:"tools,omitempty"`
	ToolChoice        string          `json:"tool_choice,omitempty"`
	ParallelToolCalls *bool           `json:"parallel_tool_calls,omitempty"`

	SurgeReasoningTokens int `json:"surge_reasoning_tokens,omitempty"`
}

// AppendJSON appends r encoded as JSON to dst, byte for byte what
// encoding/json writes for r with HTML escaping off, in one pass, as
// Request.AppendJSON does.
func (r *ResponsesRequest) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	open := len(dst)
	if r.Model != "" {
		dst = appendString(appendKey(dst, open, "model"), r.Model)
	}
	dst = appendResponsesInput(dst, open, r.Input)
	dst = appendInt(dst, open, "max_output_tokens", r.MaxOutputTokens)
	dst = appendInt(dst, open, "min_tokens", r.MinTokens)
	dst = appendTrue(dst, open, "ignore_eos", r.IgnoreEOS)
	dst = appendFloat(dst, open, "temperature", r.Temperature)
	dst = appendFloat(dst, open, "top_p", r.TopP)
	dst = appendTrue(dst, open, "stream", r.Stream)
	if r.Store != nil {
		dst = appendKey(dst, open, "store")
		if *r.Store {
			dst = append(dst, "true"...)
		} else {
			dst = append(dst, "false"...)
		}
	}
	dst = appendResponsesTools(dst, open, r.Tools)
	dst = appendToolChoice(dst, open, r.ToolChoice, r.ParallelToolCalls)
	dst = appendInt(dst, open, "surge_reasoning_tokens", r.SurgeReasoningTokens)
	return append(dst, '}')
}

// appendResponsesInput appends the input member unless msgs is empty:
// each message as a role and content item, except that an assistant's
// tool calls follow its text (an item only when it has text) as
// function_call items, and a tool result is a function_call_output item.
func appendResponsesInput(dst []byte, open int, msgs []Message) []byte {
	if len(msgs) == 0 {
		return dst
	}
	dst = append(appendKey(dst, open, "input"), '[')
	first := true
	item := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	for i := range msgs {
		m := &msgs[i]
		switch {
		case m.Role == RoleTool:
			item()
			dst = appendString(append(dst, `{"type":"function_call_output","call_id":`...), m.CallID)
			dst = append(appendString(append(dst, `,"output":`...), m.Content), '}')
			continue
		case len(m.Calls) == 0 || m.Content != "":
			item()
			dst = appendString(append(dst, `{"role":`...), m.Role)
			dst = append(appendContent(append(dst, `,"content":`...), m, responsesShape), '}')
		}
		for _, c := range m.Calls {
			item()
			dst = appendString(append(dst, `{"type":"function_call","call_id":`...), c.ID)
			dst = appendString(append(dst, `,"name":`...), c.Name)
			dst = append(appendString(append(dst, `,"arguments":`...), c.Arguments), '}')
		}
	}
	return append(dst, ']')
}

// ResponsesServerRequest is the body of a Responses API request as a
// server reads it: Input is a string or an array of input items (messages
// whose content is a string or an array of input_text parts), kept raw;
// Instructions is a system prompt given apart.
type ResponsesServerRequest struct {
	Model                string          `json:"model"`
	Input                json.RawMessage `json:"input"`
	Instructions         string          `json:"instructions"`
	MaxOutputTokens      *int            `json:"max_output_tokens"`
	MinTokens            *int            `json:"min_tokens"`
	IgnoreEOS            bool            `json:"ignore_eos"`
	Stream               bool            `json:"stream"`
	SurgeReasoningTokens *int            `json:"surge_reasoning_tokens"`
	// Tools are the functions the request defines, kept raw.
	Tools json.RawMessage `json:"tools"`
	// Text holds the answer's format (text.format), kept raw; TopLogprobs
	// and Include ask for log-probabilities.
	Text        json.RawMessage `json:"text"`
	TopLogprobs *int            `json:"top_logprobs"`
	Include     []string        `json:"include"`
}

// ResponsesInputItem is one item of a Responses API input array as a
// server reads it: a message (Type "message" or empty) with a role and a
// content that is a string or an array of ContentPart (types input_text,
// output_text); a function_call with its CallID, Name and Arguments; or
// a function_call_output with its CallID and Output (a string or an
// array of input_text parts).
type ResponsesInputItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

// Response is a whole Responses API response, and the response member of
// the stream's response.created, response.completed and
// response.incomplete events. Status is "in_progress", "completed",
// "incomplete" (IncompleteDetails says why) or "failed".
type Response struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	CreatedAt         int64              `json:"created_at"`
	Model             string             `json:"model"`
	Status            string             `json:"status"`
	IncompleteDetails *IncompleteDetails `json:"incomplete_details"`
	Output            []ResponseItem     `json:"output"`
	Usage             *ResponseUsage     `json:"usage,omitempty"`
	// SurgeTimings is surge's own engine server's measurement, in its
	// final event and whole responses.
	SurgeTimings *SurgeTimings `json:"surge_timings,omitempty"`
}

// IncompleteDetails says why a response is incomplete: "max_output_tokens"
// or "content_filter".
type IncompleteDetails struct {
	Reason string `json:"reason"`
}

// ResponseItem is one output item of a response: a "message" whose
// Content holds output_text parts, a "reasoning" item whose Content holds
// reasoning_text parts (and Summary summary_text parts), or a
// "function_call" with its Name, CallID and JSON Arguments.
type ResponseItem struct {
	Type      string        `json:"type"`
	ID        string        `json:"id,omitempty"`
	Status    string        `json:"status,omitempty"`
	Role      string        `json:"role,omitempty"`
	Content   []ContentPart `json:"content,omitempty"`
	Summary   []ContentPart `json:"summary,omitempty"`
	Name      string        `json:"name,omitempty"`
	CallID    string        `json:"call_id,omitempty"`
	Arguments string        `json:"arguments,omitempty"`
}

// ResponseUsage is a Responses API usage: input and output tokens, with
// the cached input tokens and the output tokens spent on reasoning.
type ResponseUsage struct {
	InputTokens         int                 `json:"input_tokens"`
	InputTokensDetails  InputTokensDetails  `json:"input_tokens_details"`
	OutputTokens        int                 `json:"output_tokens"`
	OutputTokensDetails OutputTokensDetails `json:"output_tokens_details"`
	TotalTokens         int                 `json:"total_tokens"`
}

// InputTokensDetails details a Responses usage's input tokens: how many
// came from the prefix cache.
type InputTokensDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

// OutputTokensDetails details a Responses usage's output tokens: how many
// were reasoning.
type OutputTokensDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}
