package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"surge/openai"
)

// MaxSchemaBytes bounds a response format's JSON schema, inline or read
// from its schema_file: it goes into every request.
const MaxSchemaBytes = 64 << 10

// optionKeys are a client's typed request options, read into
// Client.Options.
var optionKeys = []string{"response_format", "n", "stop", "logprobs", "top_logprobs"}

// formatKeys are the keys of a response_format.
var formatKeys = []string{"type", "schema", "schema_file", "name", "strict"}

// schemaName is the form of a json_schema's name, as OpenAI's API wants
// it.
var schemaName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// DefaultSchemaName is the name a json_schema response format sends when
// the spec gives none.
const DefaultSchemaName = "response"

// options reads a client's typed request options and checks them against
// its api; nil when the client sets none.
func (d *decoder) options(o *object, c *Client) {
	var opts openai.Options
	set := false
	for _, k := range optionKeys {
		set = set || o.has(k)
	}
	if !set {
		return
	}
	if n, p, ok := o.get("response_format"); ok {
		opts.Format, c.SchemaFile = d.responseFormat(n, p)
	}
	if field(o, "n", d.count, &opts.N) {
		d.check(o, "n", opts.N < 1 || opts.N > openai.MaxChoices, "n must be in [1, %d], got %d", openai.MaxChoices, opts.N)
	}
	if n, p, ok := o.get("stop"); ok {
		opts.Stop = d.stopList(n, p)
	}
	field(o, "logprobs", d.boolean, &opts.Logprobs)
	if field(o, "top_logprobs", d.count, &opts.TopLogprobs) {
		d.check(o, "top_logprobs", opts.TopLogprobs > openai.MaxTopLogprobs, "top_logprobs must be in [0, %d], got %d", openai.MaxTopLogprobs, opts.TopLogprobs)
		d.check(o, "top_logprobs", !opts.Logprobs, "top_logprobs needs logprobs: true")
	}
	var oe *openai.OptionError
	if err := opts.CheckAPI(c.API); errors.As(err, &oe) {
		d.check(o, oe.Key, true, "%s", oe.Msg)
	}
	c.Options = &opts
}

// responseFormat reads a response_format: type json_object, or
// json_schema with its schema inline or in a schema_file (returned apart:
// the schema is read from it when the spec is compiled), a name and
// strict.
func (d *decoder) responseFormat(n ast.Node, path string) (*openai.Format, string) {
	o, ok := d.object(n, path)
	if !ok {
		return nil, ""
	}
	d.known(o, formatKeys, "response_format")
	f := &openai.Format{}
	if !field(o, "type", d.choice("response format type", []string{openai.FormatJSONObject, openai.FormatJSONSchema}), &f.Type) {
		if !o.has("type") {
			d.errorf(o.node, path, "missing key type (json_object, or json_schema with a schema)")
		}
		return nil, ""
	}
	var file string
	if f.Type == openai.FormatJSONObject {
		for _, k := range []string{"schema", "schema_file", "name", "strict"} {
			d.check(o, k, o.has(k), "type json_object takes no %s: use type json_schema", k)
		}
		return f, ""
	}
	f.Name = DefaultSchemaName
	if field(o, "name", d.str, &f.Name) {
		d.check(o, "name", !schemaName.MatchString(f.Name), "name %s may hold only A-Z, a-z, 0-9, _ and -, at most 64", show(f.Name))
	}
	field(o, "strict", d.boolean, &f.Strict)
	switch sn, sp, inline := o.get("schema"); {
	case inline && o.has("schema_file"):
		d.check(o, "schema_file", true, "give schema (inline) or schema_file, not both")
	case inline:
		f.Schema = d.schema(sn, sp)
	case field(o, "schema_file", d.str, &file):
		d.check(o, "schema_file", file == "", "schema_file is empty")
	default:
		d.errorf(o.node, path, "type json_schema needs a schema: a mapping (schema:) or a JSON file beside the spec (schema_file:)")
	}
	return f, file
}

// schema reads an inline JSON schema: a mapping, as JSON.
func (d *decoder) schema(n ast.Node, path string) json.RawMessage {
	v, ok := d.jsonValue(n, path, 0)
	if !ok {
		return nil
	}
	if _, isMap := v.(map[string]any); !isMap {
		d.errorf(d.value(n, path), path, "expected a JSON schema (a mapping), got %s", describe(d.value(n, path)))
		return nil
	}
	b, err := json.Marshal(v)
	switch {
	case err != nil:
		d.errorf(d.value(n, path), path, "%v", err)
		return nil
	case len(b) > MaxSchemaBytes:
		d.errorf(d.value(n, path), path, "%d bytes of JSON: at most %d", len(b), MaxSchemaBytes)
		return nil
	}
	return b
}

// stopList reads stop: a list of at most openai.MaxStop strings, or one
// string.
func (d *decoder) stopList(n ast.Node, path string) []string {
	var items []ast.Node
	if _, isList := d.value(n, path).(*ast.SequenceNode); isList {
		items, _ = d.list(n, path)
	} else {
		items = []ast.Node{n}
	}
	if len(items) == 0 || len(items) > openai.MaxStop {
		d.errorf(d.value(n, path), path, "%d stop strings: give 1 to %d", len(items), openai.MaxStop)
		return nil
	}
	var out []string
	for i, it := range items {
		p := index(path, i)
		_, ok := d.str(it, p)
		s := scalarText(d.value(it, p)) // untrimmed: "\n\n" is a common stop
		switch {
		case !ok:
		case s == "" || len(s) > openai.MaxStopBytes:
			d.errorf(d.value(it, p), p, "a stop string of %d bytes: each must hold 1 to %d", len(s), openai.MaxStopBytes)
		default:
			out = append(out, s)
		}
	}
	return out
}

// ReadSchema reads a response format's schema file: a JSON object of at
// most MaxSchemaBytes, returned compacted. name is how errors name it.
func ReadSchema(name string, data []byte) (json.RawMessage, error) {
	if len(data) > MaxSchemaBytes {
		return nil, fmt.Errorf("schema_file %s: more than %d bytes", name, MaxSchemaBytes)
	}
	if err := openai.CheckObject(data); err != nil {
		return nil, fmt.Errorf("schema_file %s: not a JSON object: %w", name, err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return nil, fmt.Errorf("schema_file %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// writeOptions renders a client's typed request options.
func writeOptions(b *bytes.Buffer, c Client) {
	o := c.Options
	if o == nil {
		return
	}
	if f := o.Format; f != nil {
		fmt.Fprintf(b, "    response_format: {type: %s", f.Type)
		if f.Type == openai.FormatJSONSchema {
			fmt.Fprintf(b, ", name: %s, strict: %t", strconv.Quote(f.Name), f.Strict)
			if c.SchemaFile != "" {
				fmt.Fprintf(b, ", schema_file: %s", strconv.Quote(c.SchemaFile))
			} else {
				fmt.Fprintf(b, ", schema: %s", f.Schema)
			}
		}
		b.WriteString("}\n")
	}
	if o.N > 0 {
		fmt.Fprintf(b, "    n: %d\n", o.N)
	}
	if len(o.Stop) > 0 {
		q := make([]string, len(o.Stop))
		for i, s := range o.Stop {
			q[i] = strconv.Quote(s)
		}
		fmt.Fprintf(b, "    stop: [%s]\n", strings.Join(q, ", "))
	}
	if o.Logprobs {
		fmt.Fprintf(b, "    logprobs: true\n    top_logprobs: %d\n", o.TopLogprobs)
	}
}
