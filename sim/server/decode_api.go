package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

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
	if w.Model == "" {
		return request{}, badRequest("model is required")
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
		if it.Type != "" && it.Type != "message" {
			return request{}, badRequest(fmt.Sprintf("input[%d].type %q is not supported: send messages", i, it.Type))
		}
		if it.Role == "" {
			return request{}, badRequest(fmt.Sprintf("input[%d].role is required", i))
		}
		text, err := partsText(it.Content, "input_text", "output_text")
		if err != nil {
			return request{}, badRequest(fmt.Sprintf("input[%d].content: %v", i, err))
		}
		r.texts = append(r.texts, text)
	}
	return r, nil
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
	if w.Model == "" {
		return request{}, badRequest("model is required")
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
		text, err := partsText(m.Content, "text")
		if err != nil {
			return request{}, badRequest(fmt.Sprintf("messages[%d].content: %v", i, err))
		}
		r.texts = append(r.texts, text)
	}
	return r, nil
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
	var b bytes.Buffer
	for _, p := range parts {
		if !slices.Contains(types, p.Type) {
			return "", fmt.Errorf("content part type %q is not supported", p.Type)
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}
