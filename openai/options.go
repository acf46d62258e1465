package openai

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Bounds on a request's typed options, as OpenAI's API sets them.
const (
	MaxChoices     = 128 // n
	MaxStop        = 4   // stop strings
	MaxStopBytes   = 256 // bytes of one stop string
	MaxTopLogprobs = 20  // top_logprobs
)

// Response format types (Format.Type).
const (
	FormatJSONObject = "json_object"
	FormatJSONSchema = "json_schema"
)

// LogprobsInclude is the include entry that asks the Responses API for
// the log-probabilities of the output text.
const LogprobsInclude = "message.output_text.logprobs"

// Options are the typed options a request sends beside its prompt: how
// many choices (N), where to stop, log-probabilities and the format of
// the answer. AppendOptions writes them in each API's shape; Check says
// which an API cannot send. The zero value sends nothing.
type Options struct {
	// Format, when set, asks for JSON: any object (json_object) or one
	// that follows a JSON schema (json_schema).
	Format *Format `json:"response_format,omitempty"`
	// N is the number of choices to generate; 0 and 1 send none.
	N int `json:"n,omitempty"`
	// Stop are strings at which generation ends, at most MaxStop.
	Stop []string `json:"stop,omitempty"`
	// Logprobs asks for each output token's log-probability, with the
	// TopLogprobs most likely alternatives (0 to MaxTopLogprobs).
	Logprobs    bool `json:"logprobs,omitempty"`
	TopLogprobs int  `json:"top_logprobs,omitempty"`
}

// Format is a response format: Type json_object, or json_schema with the
// schema's Name, the Schema itself (a JSON object) and Strict.
type Format struct {
	Type   string          `json:"type"`
	Name   string          `json:"name,omitempty"`
	Schema json.RawMessage `json:"schema,omitempty"`
	Strict bool            `json:"strict,omitempty"`
}

// Choices is the number of choices o asks for: N, at least 1.
func (o *Options) Choices() int {
	if o == nil || o.N < 1 {
		return 1
	}
	return o.N
}

// OptionError is an option an API cannot send, or a value out of its
// bounds: Key names the option as a spec writes it.
type OptionError struct {
	Key string
	Msg string
}

func (e *OptionError) Error() string { return e.Key + ": " + e.Msg }

// Check reports the first option of o that is out of bounds or that api
// cannot send, as an *OptionError; nil when all can be sent.
func (o *Options) Check(api string) error {
	if o == nil {
		return nil
	}
	if err := o.CheckBounds(); err != nil {
		return err
	}
	return o.CheckAPI(api)
}

// CheckBounds reports, as an *OptionError, an option whose value is out
// of its bounds, whatever the API.
func (o *Options) CheckBounds() error {
	if o == nil {
		return nil
	}
	switch {
	case o.N < 0 || o.N > MaxChoices:
		return &OptionError{"n", fmt.Sprintf("%d choices: n must be in [1, %d]", o.N, MaxChoices)}
	case len(o.Stop) > MaxStop:
		return &OptionError{"stop", fmt.Sprintf("%d strings: at most %d", len(o.Stop), MaxStop)}
	case o.TopLogprobs < 0 || o.TopLogprobs > MaxTopLogprobs:
		return &OptionError{"top_logprobs", fmt.Sprintf("%d: must be in [0, %d]", o.TopLogprobs, MaxTopLogprobs)}
	case o.TopLogprobs > 0 && !o.Logprobs:
		return &OptionError{"top_logprobs", "needs logprobs: true"}
	}
	for _, s := range o.Stop {
		if s == "" || len(s) > MaxStopBytes {
			return &OptionError{"stop", fmt.Sprintf("a stop string of %d bytes: each must hold 1 to %d", len(s), MaxStopBytes)}
		}
	}
	if f := o.Format; f != nil {
		return f.check()
	}
	return nil
}

// check checks a response format: its type, and a schema (an object)
// only for json_schema.
func (f *Format) check() error {
	switch f.Type {
	case FormatJSONObject:
		if len(f.Schema) > 0 || f.Name != "" || f.Strict {
			return &OptionError{"response_format", "json_object takes no schema, name or strict (use type: json_schema)"}
		}
	case FormatJSONSchema:
		if f.Name == "" {
			return &OptionError{"response_format.name", "json_schema needs a name"}
		}
		if err := CheckObject(f.Schema); err != nil {
			return &OptionError{"response_format.schema", "the schema must be a JSON object: " + err.Error()}
		}
	default:
		return &OptionError{"response_format.type", fmt.Sprintf("%q: want %s or %s", f.Type, FormatJSONObject, FormatJSONSchema)}
	}
	return nil
}

// CheckAPI reports, as an *OptionError, an option o sets that api has
// no member for: n beyond chat and completions; stop in the Responses API; logprobs in the Messages API;
// json_object in the Messages API (Anthropic's structured outputs take
// a schema); any option for embeddings.
func (o *Options) CheckAPI(api string) error {
	if o == nil {
		return nil
	}
	has := func(key string, set bool, ok ...string) error {
		if !set {
			return nil
		}
		for _, a := range ok {
			if a == api || (a == APIChat && api == "") {
				return nil
			}
		}
		return &OptionError{key, fmt.Sprintf("api %s has no %s: the %s apis send it", apiName(api), key, list(ok))}
	}
	if err := has("n", o.N > 1, APIChat, APICompletions); err != nil {
		return err
	}
	if err := has("stop", len(o.Stop) > 0, APIChat, APICompletions, APIMessages); err != nil {
		return err
	}
	if err := has("logprobs", o.Logprobs, APIChat, APICompletions, APIResponses); err != nil {
		return err
	}
	if f := o.Format; f != nil && f.Type == FormatJSONObject {
		return has("response_format", true, APIChat, APICompletions, APIResponses)
	}
	return has("response_format", o.Format != nil, APIChat, APICompletions, APIResponses, APIMessages)
}

// apiName is api as messages name it, chat for the empty one.
func apiName(api string) string {
	if api == "" {
		return APIChat
	}
	return api
}

// list joins names with commas and "and".
func list(names []string) string {
	s := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += " and "
		default:
			s += ", "
		}
		s += n
	}
	return s
}

// AppendOptions appends o's members, in api's shape, to body, a JSON
// object with at least one member, and returns the extended buffer:
//
//   - chat: response_format {type, json_schema: {name, schema, strict}},
//     n, stop, logprobs true and top_logprobs;
//   - completions: the same, but logprobs is the number of alternatives
//     (top_logprobs);
//   - responses: text.format {type, name, schema, strict}, top_logprobs
//     and include [message.output_text.logprobs];
//   - messages: stop_sequences, output_config.format {type: json_schema,
//     schema}.
//
// Options Check refuses for api are not written; the other APIs
// (embeddings, rerank, score) get none.
func AppendOptions(body []byte, api string, o *Options) []byte {
	if o == nil || len(body) < 2 || body[len(body)-1] != '}' {
		return body
	}
	dst := body[:len(body)-1]
	open := len(dst) - 1 // the body has members: every key takes a comma
	switch api {
	case APIResponses:
		dst = o.appendResponses(dst, open)
	case APIMessages:
		dst = o.appendMessages(dst, open)
	case APIChat, APICompletions, "":
		dst = o.appendChat(dst, open, api == APICompletions)
	}
	return append(dst, '}')
}

// appendChat appends the chat and completions members.
func (o *Options) appendChat(dst []byte, open int, completions bool) []byte {
	if f := o.Format; f != nil {
		dst = appendKey(dst, open, "response_format")
		dst = append(dst, `{"type":`...)
		dst = appendString(dst, f.Type)
		if f.Type == FormatJSONSchema {
			dst = append(dst, `,"json_schema":{`...)
			dst = append(f.appendSchema(dst), '}')
		}
		dst = append(dst, '}')
	}
	if o.N > 1 {
		dst = appendInt(dst, open, "n", o.N)
	}
	dst = appendStringList(dst, open, "stop", o.Stop)
	if o.Logprobs && completions {
		dst = strconv.AppendInt(appendKey(dst, open, "logprobs"), int64(o.TopLogprobs), 10)
	} else if o.Logprobs {
		dst = appendTrue(dst, open, "logprobs", true)
		dst = appendInt(dst, open, "top_logprobs", o.TopLogprobs)
	}
	return dst
}

// appendResponses appends the Responses API's members.
func (o *Options) appendResponses(dst []byte, open int) []byte {
	if f := o.Format; f != nil {
		dst = appendKey(dst, open, "text")
		dst = append(dst, `{"format":`...)
		if f.Type == FormatJSONSchema {
			dst = append(f.appendSchema(append(dst, `{"type":"json_schema",`...)), '}')
		} else {
			dst = append(dst, `{"type":"json_object"}`...)
		}
		dst = append(dst, '}')
	}
	if o.Logprobs {
		dst = appendInt(dst, open, "top_logprobs", o.TopLogprobs)
		dst = appendStringList(dst, open, "include", []string{LogprobsInclude})
	}
	return dst
}

// appendMessages appends the Messages API's members.
func (o *Options) appendMessages(dst []byte, open int) []byte {
	dst = appendStringList(dst, open, "stop_sequences", o.Stop)
	if f := o.Format; f != nil && f.Type == FormatJSONSchema {
		dst = appendKey(dst, open, "output_config")
		dst = append(dst, `{"format":{"type":"json_schema","schema":`...)
		dst = append(dst, f.Schema...)
		dst = append(dst, "}}"...)
	}
	return dst
}

// appendSchema appends the members name, schema and strict (when set)
// of a json_schema format.
func (f *Format) appendSchema(dst []byte) []byte {
	dst = append(dst, `"name":`...)
	dst = appendString(dst, f.Name)
	dst = append(dst, `,"schema":`...)
	dst = append(dst, f.Schema...)
	if f.Strict {
		dst = append(dst, `,"strict":true`...)
	}
	return dst
}

// appendStringList appends the field name: an array of strs unless it
// is empty.
func appendStringList(dst []byte, open int, name string, strs []string) []byte {
	if len(strs) == 0 {
		return dst
	}
	return appendStrings(appendKey(dst, open, name), strs)
}
