package spec

import (
	"bytes"
	"strings"
	"testing"

	"surge/openai"
)

// optionsSpec is a spec of one client on api with the client keys extra.
func optionsSpec(api, extra string) string {
	return "version: 1\nduration: 1m\nclients:\n  - name: c\n    model: m\n    api: " + api +
		"\n    rate: 1\n    input: 100\n    output: 50\n    sampling: {max_tokens: 64}\n" + extra
}

func TestOptionsParse(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(optionsSpec("chat", `    response_format:
      type: json_schema
      name: answer
      strict: true
      schema: {type: object, properties: {a: {type: string}}}
    n: 2
    stop: ["\n\n", END]
    logprobs: true
    top_logprobs: 3
`)))
	if err != nil {
		t.Fatal(err)
	}
	o := s.Clients[0].Options
	if o == nil || o.N != 2 || len(o.Stop) != 2 || o.Stop[1] != "END" || !o.Logprobs || o.TopLogprobs != 3 {
		t.Fatalf("options %+v", o)
	}
	if f := o.Format; f == nil || f.Type != openai.FormatJSONSchema || f.Name != "answer" || !f.Strict ||
		string(f.Schema) != `{"properties":{"a":{"type":"string"}},"type":"object"}` {
		t.Fatalf("format %+v (schema %s)", o.Format, o.Format.Schema)
	}
	once := s.Canonical()
	s2, err := Parse("canonical", once)
	if err != nil {
		t.Fatalf("canonical form does not parse:\n%v\n%s", err, once)
	}
	if twice := s2.Canonical(); !bytes.Equal(once, twice) {
		t.Errorf("canonical form is not a fixed point:\n%s\nthen\n%s", once, twice)
	}
	if !strings.Contains(string(once), "n: 2") {
		t.Errorf("canonical form lacks n:\n%s", once)
	}
}

func TestOptionsSchemaFile(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(optionsSpec("responses", "    response_format: {type: json_schema, schema_file: s.json}\n")))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Clients[0]
	if c.SchemaFile != "s.json" || c.Options.Format.Name != DefaultSchemaName || c.Options.Format.Schema != nil {
		t.Fatalf("client %+v format %+v", c, c.Options.Format)
	}
	if _, err := ReadSchema("s.json", []byte(`[1]`)); err == nil {
		t.Error("a schema file holding a list was read")
	}
	if b, err := ReadSchema("s.json", []byte("{ \"type\" : \"object\" }\n")); err != nil || string(b) != `{"type":"object"}` {
		t.Errorf("ReadSchema = %s, %v", b, err)
	}
	if _, err := ReadSchema("s.json", bytes.Repeat([]byte(" "), MaxSchemaBytes+1)); err == nil {
		t.Error("an oversized schema file was read")
	}
}

func TestOptionsErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		api, extra string
		ws         []want
	}{
		{"chat", "    n: 0\n", []want{{"11:8: clients[0].n", "n must be in [1, 128]"}}},
		{"chat", "    n: 129\n", []want{{"11:8: clients[0].n", "n must be in"}}},
		{"responses", "    n: 2\n", []want{{"11:8: clients[0].n", "api responses has no n"}}},
		{"messages", "    n: 2\n", []want{{"11:8: clients[0].n", "api messages has no n"}}},
		{"responses", "    stop: [x]\n", []want{{"11:11: clients[0].stop", "api responses has no stop"}}},
		{"chat", "    stop: [a, b, c, d, e]\n", []want{{"11:11: clients[0].stop", "5 stop strings"}}},
		{"chat", "    stop: [\"\"]\n", []want{{"11:12: clients[0].stop[0]", "each must hold 1 to 256"}}},
		{"messages", "    logprobs: true\n", []want{{"11:15: clients[0].logprobs", "api messages has no logprobs"}}},
		{"chat", "    top_logprobs: 2\n", []want{{"11:19: clients[0].top_logprobs", "needs logprobs: true"}}},
		{"chat", "    logprobs: true\n    top_logprobs: 21\n", []want{{"12:19: clients[0].top_logprobs", "top_logprobs must be in [0, 20]"}}},
		{"messages", "    response_format: {type: json_object}\n", []want{{"11:22: clients[0].response_format", "api messages has no response_format"}}},
		{"chat", "    response_format: {type: json}\n", []want{{"11:29: clients[0].response_format.type", `(did you mean "json_object"?)`}}},
		{"chat", "    response_format: {type: json_schema}\n", []want{{"11:22: clients[0].response_format", "needs a schema"}}},
		{"chat", "    response_format: {type: json_object, strict: true}\n", []want{{"11:50: clients[0].response_format.strict", "json_object takes no strict"}}},
		{"chat", "    response_format: {type: json_schema, schema: [1]}\n", []want{{"11:50: clients[0].response_format.schema", "expected a JSON schema (a mapping)"}}},
		{"chat", "    response_format: {type: json_schema, schema: {}, schema_file: f}\n", []want{{"11:67: clients[0].response_format.schema_file", "not both"}}},
		{"chat", "    response_format: {type: json_schema, name: \"a b\", schema: {}}\n", []want{{"11:48: clients[0].response_format.name", "may hold only"}}},
		{"chat", "    response_format: {type: json_schema, name: a, shema: {}}\n", []want{{"11:22: clients[0].response_format", "needs a schema"}, {"11:51: clients[0].response_format.shema", `did you mean "schema"`}}},
		{"chat", "    logprob: true\n", []want{{"11:5: clients[0].logprob", `did you mean "logprobs"`}}},
	} {
		extra := c.extra
		if c.api == "embeddings" {
			extra = strings.Replace(extra, "    sampling: {max_tokens: 64}\n", "", 1)
		}
		checkErrs(t, c.api+": "+strings.TrimSpace(c.extra), optionsSpec(c.api, extra), c.ws...)
	}
}
