package harness

import (
	"strings"
	"testing"
	"testing/fstest"

	"surge/spec"
)

// TestReadSchemas checks that a client's schema_file is read relative to
// the spec into its response format, and that a missing, oversized or
// non-object file is refused with the client named.
func TestReadSchemas(t *testing.T) {
	t.Parallel()
	src := "version: 1\nduration: 1m\nclients:\n  - {name: c, model: m, rate: 1, input: 10, output: 10, response_format: {type: json_schema, schema_file: s.json}}\n"
	for _, tt := range []struct {
		file, want string
	}{
		{`{"type": "object"}`, `{"type":"object"}`},
		{`[1]`, "client c: response_format: schema_file dir/s.json: not a JSON object"},
		{strings.Repeat(" ", spec.MaxSchemaBytes+1), "more than 65536 bytes"},
		{"", "dir/s.json: file does not exist"},
	} {
		s, err := spec.Parse("dir/w.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{}
		if tt.file != "" {
			fsys["dir/s.json"] = &fstest.MapFile{Data: []byte(tt.file)}
		}
		err = readSchemas(fsys, "dir/w.yaml", s)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = string(s.Clients[0].Options.Format.Schema)
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("file %.20q: got %s, want %s", tt.file, got, tt.want)
		}
	}
}
