package openai

import "encoding/json"

// Tool is one function a request defines, in no API's wrapping: its
// name, what it does, and its parameters as a compact JSON Schema object.
// Its JSON (AppendDef) is the definition a tool set's schema size counts;
// each API wraps it its own way (ChatTools, ResponsesTools, MessagesTools).
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// AppendDef appends t's definition to dst as compact JSON,
// {"name":…,"description":…,"parameters":…}, byte for byte what
// encoding/json writes for t with HTML escaping off, given compact
// Parameters.
func (t *Tool) AppendDef(dst []byte) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, t.Name)
	dst = append(dst, `,"description":`...)
	dst = appendString(dst, t.Description)
	dst = append(dst, `,"parameters":`...)
	dst = appendRaw(dst, t.Parameters)
	return append(dst, '}')
}

// appendRaw appends raw JSON, null when empty.
func appendRaw(dst []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, raw...)
}

// ChatTool is a tool as chat completions defines it.
type ChatTool struct {
	Type     string `json:"type"` // "function"
	Function Tool   `json:"function"`
}

// ChatTools wraps tools for a chat request.
func ChatTools(tools []Tool) []ChatTool {
	out := make([]ChatTool, len(tools))
	for i, t := range tools {
		out[i] = ChatTool{Type: "function", Function: t}
	}
	return out
}

// ResponsesTool is a function tool as the Responses API defines it: the
// definition's members beside its type, not nested.
type ResponsesTool struct {
	Type        string          `json:"type"` // "function"
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// ResponsesTools wraps tools for a Responses request.
func ResponsesTools(tools []Tool) []ResponsesTool {
	out := make([]ResponsesTool, len(tools))
	for i, t := range tools {
		out[i] = ResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	return out
}

// MessagesTool is a tool as Anthropic's Messages API defines it: the
// parameters' schema is input_schema.
type MessagesTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// MessagesTools wraps tools for a Messages request.
func MessagesTools(tools []Tool) []MessagesTool {
	out := make([]MessagesTool, len(tools))
	for i, t := range tools {
		out[i] = MessagesTool{Name: t.Name, Description: t.Description, InputSchema: t.Parameters}
	}
	return out
}

// MessagesToolChoice is Anthropic's tool_choice: Type "auto", "any"
// (OpenAI's "required") or "none", and whether the model must make at
// most one tool call per reply.
type MessagesToolChoice struct {
	Type                   string `json:"type"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use,omitempty"`
}

// MessagesChoice translates OpenAI's tool_choice and parallel_tool_calls
// into Anthropic's tool_choice; nil for an empty choice.
func MessagesChoice(choice string, parallel bool) *MessagesToolChoice {
	switch choice {
	case "":
		return nil
	case "required":
		choice = "any"
	}
	return &MessagesToolChoice{Type: choice, DisableParallelToolUse: !parallel && choice != "none"}
}

// appendChatTools appends chat's tools member unless tools is empty.
func appendChatTools(dst []byte, open int, tools []ChatTool) []byte {
	if len(tools) == 0 {
		return dst
	}
	dst = append(appendKey(dst, open, "tools"), '[')
	for i := range tools {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":`...)
		dst = appendString(dst, tools[i].Type)
		dst = append(dst, `,"function":`...)
		dst = tools[i].Function.AppendDef(dst)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendResponsesTools appends the Responses tools member unless tools is
// empty.
func appendResponsesTools(dst []byte, open int, tools []ResponsesTool) []byte {
	if len(tools) == 0 {
		return dst
	}
	dst = append(appendKey(dst, open, "tools"), '[')
	for i := range tools {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":`...)
		dst = appendString(dst, tools[i].Type)
		dst = append(dst, `,"name":`...)
		dst = appendString(dst, tools[i].Name)
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, tools[i].Description)
		dst = append(dst, `,"parameters":`...)
		dst = appendRaw(dst, tools[i].Parameters)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendMessagesTools appends the Messages tools member unless tools is
// empty, and tool_choice when set.
func appendMessagesTools(dst []byte, open int, tools []MessagesTool, choice *MessagesToolChoice) []byte {
	if len(tools) > 0 {
		dst = append(appendKey(dst, open, "tools"), '[')
		for i := range tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"name":`...)
			dst = appendString(dst, tools[i].Name)
			dst = append(dst, `,"description":`...)
			dst = appendString(dst, tools[i].Description)
			dst = append(dst, `,"input_schema":`...)
			dst = appendRaw(dst, tools[i].InputSchema)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if choice != nil {
		dst = append(appendKey(dst, open, "tool_choice"), `{"type":`...)
		dst = appendString(dst, choice.Type)
		if choice.DisableParallelToolUse {
			dst = append(dst, `,"disable_parallel_tool_use":true`...)
		}
		dst = append(dst, '}')
	}
	return dst
}

// appendToolChoice appends OpenAI's tool_choice and parallel_tool_calls
// members when set.
func appendToolChoice(dst []byte, open int, choice string, parallel *bool) []byte {
	if choice != "" {
		dst = appendString(appendKey(dst, open, "tool_choice"), choice)
	}
	if parallel != nil {
		dst = appendBool(appendKey(dst, open, "parallel_tool_calls"), *parallel)
	}
	return dst
}

// appendBool appends true or false.
func appendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}
