package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"surge/openai"
)

// Bounds on the typed options the server takes, as vLLM's defaults set
// them (max_logprobs 20).
const (
	maxChoices     = openai.MaxChoices
	maxTopLogprobs = openai.MaxTopLogprobs
	maxStops       = 16
	maxFields      = 64 // JSON members an answer spreads its tokens over
)

// options are a request's typed options as the server reads them from
// any API's members.
type options struct {
	choices int // n: choices to generate, at least 1
	// fields, when set, makes the answer a JSON object: these members,
	// as JSON strings (quoted), share its tokens (the schema's top-level
	// properties, sorted, or "text").
	fields      []string
	stop        []string
	logprobs    bool
	topLogprobs int
}

// defaultField is the member of a JSON answer without a schema's
// properties.
const defaultField = `"text"`

// chatOptions reads the options of a chat or completions request: n,
// response_format, stop, and logprobs (a boolean in chat, with
// top_logprobs; a count in completions).
func (w *wireRequest) chatOptions(r *request) error {
	r.choices = 1
	if w.N != nil {
		if *w.N < 1 || *w.N > maxChoices {
			return badRequest(fmt.Sprintf("n must be in [1, %d], got %d.", maxChoices, *w.N))
		}
		r.choices = *w.N
	}
	if err := r.chatFormat(w.ResponseFormat); err != nil {
		return err
	}
	if err := r.stops(w.Stop); err != nil {
		return err
	}
	return r.chatLogprobs(w.Logprobs, w.TopLogprobs)
}

// chatFormat reads response_format: {type: text, json_object or
// json_schema, json_schema: {schema}}.
func (r *request) chatFormat(raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	var f struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return badRequest("response_format must be an object with a type")
	}
	switch f.Type {
	case "text":
		return nil
	case openai.FormatJSONObject:
		r.fields = []string{defaultField}
		return nil
	case openai.FormatJSONSchema:
		if f.JSONSchema == nil {
			return badRequest("response_format.json_schema is required for type json_schema")
		}
		return r.schemaFields(f.JSONSchema.Schema, "response_format.json_schema.schema")
	}
	return badRequest(fmt.Sprintf("response_format.type %q: want text, json_object or json_schema", f.Type))
}

// schemaFields sets the members of a JSON answer from a schema: its
// top-level properties, sorted, that can be JSON keys as they are, or
// "text" for a schema with none.
func (r *request) schemaFields(schema json.RawMessage, name string) error {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if isNull(schema) || schema[0] != '{' || json.Unmarshal(schema, &s) != nil {
		return badRequest(name + " must be a JSON schema (an object)")
	}
	for _, k := range slices.Sorted(mapKeys(s.Properties)) {
		if plainKey(k) && len(r.fields) < maxFields {
			q, _ := json.Marshal(k)
			r.fields = append(r.fields, string(q))
		}
	}
	if len(r.fields) == 0 {
		r.fields = []string{defaultField}
	}
	return nil
}

// mapKeys yields the keys of m.
func mapKeys(m map[string]json.RawMessage) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// plainKey reports whether k needs no escape in JSON or in Go's quoting,
// which the stream's writers use.
func plainKey(k string) bool {
	return k != "" && len(k) <= 64 && !strings.ContainsFunc(k, func(c rune) bool {
		return c == '"' || c == '\\' || c > unicode.MaxASCII || !unicode.IsPrint(c)
	})
}

// stops reads stop: a string or an array of strings.
func (r *request) stops(raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		r.stop = []string{one}
		return nil
	}
	if err := json.Unmarshal(raw, &r.stop); err != nil {
		return badRequest("stop must be a string or an array of strings")
	}
	if len(r.stop) > maxStops {
		return badRequest(fmt.Sprintf("stop: %d strings, at most %d", len(r.stop), maxStops))
	}
	r.stop = slices.DeleteFunc(r.stop, func(s string) bool { return s == "" })
	return nil
}

// chatLogprobs reads logprobs: chat's boolean with top_logprobs, or
// completions' count of alternatives.
func (r *request) chatLogprobs(raw json.RawMessage, top *int) error {
	if isNull(raw) {
		return nil
	}
	if r.chat() {
		if err := json.Unmarshal(raw, &r.logprobs); err != nil {
			return badRequest("logprobs must be a boolean")
		}
		if top != nil {
			r.topLogprobs = *top
		}
	} else {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil {
			return badRequest("logprobs must be an integer")
		}
		r.logprobs, r.topLogprobs = true, n
	}
	if r.topLogprobs < 0 || r.topLogprobs > maxTopLogprobs {
		return badRequest(fmt.Sprintf("top_logprobs must be in [0, %d], got %d.", maxTopLogprobs, r.topLogprobs))
	}
	return nil
}

// responsesOptions reads a Responses request's options: text.format
// ({type, schema}), and top_logprobs with include's
// message.output_text.logprobs.
func (r *request) responsesOptions(w *openai.ResponsesServerRequest) error {
	r.choices = 1
	if !isNull(w.Text) {
		var t struct {
			Format *struct {
				Type   string          `json:"type"`
				Schema json.RawMessage `json:"schema"`
			} `json:"format"`
		}
		if err := json.Unmarshal(w.Text, &t); err != nil {
			return badRequest("text must be an object")
		}
		if f := t.Format; f != nil {
			switch f.Type {
			case "text", "":
			case openai.FormatJSONObject:
				r.fields = []string{defaultField}
			case openai.FormatJSONSchema:
				if err := r.schemaFields(f.Schema, "text.format.schema"); err != nil {
					return err
				}
			default:
				return badRequest(fmt.Sprintf("text.format.type %q: want text, json_object or json_schema", f.Type))
			}
		}
	}
	r.logprobs = slices.Contains(w.Include, openai.LogprobsInclude)
	if w.TopLogprobs != nil {
		r.topLogprobs = *w.TopLogprobs
		if r.topLogprobs < 0 || r.topLogprobs > maxTopLogprobs {
			return badRequest(fmt.Sprintf("top_logprobs must be in [0, %d], got %d.", maxTopLogprobs, r.topLogprobs))
		}
	}
	return nil
}

// messagesOptions reads a Messages request's options: stop_sequences and
// output_config.format ({type: json_schema, schema}).
func (r *request) messagesOptions(w *openai.MessagesServerRequest) error {
	r.choices = 1
	r.stop = slices.DeleteFunc(slices.Clone(w.StopSequences), func(s string) bool { return s == "" })
	if isNull(w.OutputConfig) {
		return nil
	}
	var c struct {
		Format *struct {
			Type   string          `json:"type"`
			Schema json.RawMessage `json:"schema"`
		} `json:"format"`
	}
	if err := json.Unmarshal(w.OutputConfig, &c); err != nil {
		return badRequest("output_config must be an object")
	}
	if f := c.Format; f != nil {
		if f.Type != openai.FormatJSONSchema {
			return badRequest(fmt.Sprintf("output_config.format.type %q: want json_schema", f.Type))
		}
		return r.schemaFields(f.Schema, "output_config.format.schema")
	}
	return nil
}

// isNull reports a member that is absent or null.
func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}
