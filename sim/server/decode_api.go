package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"surge/openai"
)

// decodeResponses parses and validates a Responses API request: its
// instructions and input messages are the prompt.
func decodeResponses(body []byte) (request, error) {
	var w openai.ResponsesServerRequest
	if err := decodeJSON(body, &w); err != nil {
		return request{}, err
	}
	r := request{api: openai.APIResponses, model: w.Model, ignoreEOS: w.IgnoreEOS, stream: w.Stream, includeUsage: true}
	if err := r.lengths("max_output_tokens", w.MaxOutputTokens, w.MinTokens, w.SurgeReasoningTokens); err != nil {
		return request{}, err
	}
	if err := r.responsesOptions(&w); err != nil {
		return request{}, err
	}
	if w.Model == "" {
		return request{}, badRequest("model is required")
	}
	if err := r.tools(w.Tools); err != nil {
		return request{}, err
	}
	if w.Instructions != "" {
		r.texts = append(r.texts, w.Instructions)
	}
	raw := bytes.TrimSpace(w.Input)
	if len(raw) == 0 || string(raw) == "null" {
		return request{}, badRequest("input is required")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return request{}, badRequest(fmt.Sprintf("input: %v", err))
		}
		r.texts = append(r.texts, s)
		return r, nil
	}
	var items []openai.ResponsesInputItem
	if err := json.Unmarshal(raw, &items); err != nil {
		return request{}, badRequest("input must be a string or an array of input items")
	}
	if len(items) == 0 {
		return request{}, badRequest("input must not be empty")
	}
	for i, it := range items {
		if err := r.inputItem(&it); err != nil {
			return request{}, badRequest(fmt.Sprintf("input[%d]%v", i, err))
		}
	}
	return r, nil
}

// inputItem adds an input item's text to the prompt: a message's
// content, a function call's name and arguments, a call output's output.
// Its errors start with the member they are about.
func (r *request) inputItem(it *openai.ResponsesInputItem) error {
	switch it.Type {
	case "", "message":
		if it.Role == "" {
			return errors.New(".role is required")
		}
		text, pics, err := contentParts(it.Content, len(r.texts)+1, responsesImage, "input_text", "output_text")
		if err != nil {
			return fmt.Errorf(".content: %v", err)
		}
		r.texts, r.images = append(r.texts, text), append(r.images, pics...)
	case "function_call":
		if it.CallID == "" || it.Name == "" {
			return errors.New(": a function_call needs its call_id and name")
		}
		r.texts = append(r.texts, it.Name, it.Arguments)
	case "function_call_output":
		if it.CallID == "" {
			return errors.New(".call_id is required")
		}
		text, err := partsText(it.Output, "input_text", "output_text")
		if err != nil {
			return fmt.Errorf(".output: %v", err)
		}
		r.texts = append(r.texts, text)
	default:
		return fmt.Errorf(".type %q is not supported: send messages, function_call and function_call_output items", it.Type)
	}
	return nil
}

// decodeMessages parses and validates a Messages API request: its system
// prompt and messages are the prompt, and max_tokens is required.
func decodeMessages(body []byte) (request, error) {
	var w openai.MessagesServerRequest
	if err := decodeJSON(body, &w); err != nil {
		return request{}, err
	}
	r := request{api: openai.APIMessages, model: w.Model, ignoreEOS: w.IgnoreEOS, stream: w.Stream, includeUsage: true}
	if w.MaxTokens == nil {
		return request{}, badRequest("max_tokens: Field required")
	}
	if err := r.lengths("max_tokens", w.MaxTokens, w.MinTokens, w.SurgeReasoningTokens); err != nil {
		return request{}, err
	}
	if err := r.messagesOptions(&w); err != nil {
		return request{}, err
	}
	if w.Model == "" {
		return request{}, badRequest("model is required")
	}
	if err := r.tools(w.Tools); err != nil {
		return request{}, err
	}
	system, err := partsText(w.System, "text")
	if err != nil {
		return request{}, badRequest(fmt.Sprintf("system: %v", err))
	}
	if system != "" {
		r.texts = append(r.texts, system)
	}
	if len(w.Messages) == 0 {
		return request{}, badRequest("messages: at least one message is required")
	}
	for i, m := range w.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return request{}, badRequest(fmt.Sprintf("messages[%d].role: Input should be 'user' or 'assistant'", i))
		}
		if err := r.blocks(m.Content); err != nil {
			return request{}, badRequest(fmt.Sprintf("messages[%d].content: %v", i, err))
		}
	}
	return r, nil
}

// messagesBlock is a content block of a Messages API message as the
// server reads it: text, a tool_use with its name and input, or a
// tool_result whose content is a string or an array of text blocks.
type messagesBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	ID      string          `json:"id"`
	UseID   string          `json:"tool_use_id"`
	Content json.RawMessage `json:"content"`
	Source  *imageSource    `json:"source"`
}

// blocks adds a Messages API content's text to the prompt: a string, or
// its blocks' text, images, tool calls' names and inputs and tool results.
func (r *request) blocks(raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		text, err := partsText(raw, "text")
		r.texts = append(r.texts, text)
		return err
	}
	var blocks []messagesBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return errors.New("must be a string or an array of content blocks")
	}
	for j, b := range blocks {
		switch b.Type {
		case "text":
			r.texts = append(r.texts, b.Text)
		case messagesImage:
			p := part{Type: messagesImage, Source: b.Source}
			pic, err := p.picture()
			if err != nil {
				return fmt.Errorf("[%d]: %w", j, err)
			}
			pic.at = len(r.texts)
			r.images = append(r.images, pic)
		case "tool_use":
			if b.ID == "" || b.Name == "" {
				return fmt.Errorf("[%d]: a tool_use block needs its id and name", j)
			}
			r.texts = append(r.texts, b.Name, string(b.Input))
		case "tool_result":
			if b.UseID == "" {
				return fmt.Errorf("[%d].tool_use_id is required", j)
			}
			text, err := partsText(b.Content, "text")
			if err != nil {
				return fmt.Errorf("[%d].content: %v", j, err)
			}
			r.texts = append(r.texts, text)
		default:
			return fmt.Errorf("content part type %q is not supported", b.Type)
		}
	}
	return nil
}

// decodeEmbeddings parses and validates an embeddings request: input is
// a string, an array of strings, an array of token IDs or an array of
// arrays of them. The engine costs the batch as one prompt of all its
// inputs' tokens.
func decodeEmbeddings(body []byte) (request, error) {
	var w openai.EmbeddingsServerRequest
	if err := decodeJSON(body, &w); err != nil {
		return request{}, err
	}
	if w.Model == "" {
		return request{}, badRequest("model is required")
	}
	if w.EncodingFormat != "" && w.EncodingFormat != "float" && w.EncodingFormat != "base64" {
		return request{}, badRequest(fmt.Sprintf("encoding_format %q: want float or base64", w.EncodingFormat))
	}
	r := request{api: openai.APIEmbeddings, model: w.Model, maxTokens: 1, base64: w.EncodingFormat == "base64"}
	texts, batch, err := embeddingsInput(bytes.TrimSpace(w.Input))
	if err != nil {
		return request{}, err
	}
	r.inputs = len(texts) + len(batch)
	if r.inputs == 0 {
		return request{}, badRequest("input must not be empty")
	}
	for i, b := range batch {
		if len(b) == 0 {
			return request{}, badRequest(fmt.Sprintf("input[%d] must not be empty", i))
		}
		r.ids = append(r.ids, b...)
	}
	r.texts = texts
	return r, nil
}

// embeddingsInput reads an embeddings input: texts, or batches of token
// IDs.
func embeddingsInput(raw []byte) ([]string, [][]int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, badRequest("input is required")
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil, nil
	}
	var texts []string
	if json.Unmarshal(raw, &texts) == nil {
		return texts, nil, nil
	}
	var ids []int
	if json.Unmarshal(raw, &ids) == nil {
		return nil, [][]int{ids}, nil
	}
	var batch [][]int
	if json.Unmarshal(raw, &batch) == nil {
		return nil, batch, nil
	}
	return nil, nil, badRequest("input must be a string, an array of strings, an array of token IDs or an array of arrays of them")
}

// partsText reads a content that is a string, null, or an array of
// parts whose types are among types, and returns their text
// concatenated.
func partsText(raw json.RawMessage, types ...string) (string, error) {
	text, _, err := contentParts(raw, 0, "", types...)
	return text, err
}
