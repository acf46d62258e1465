package harness

import (
	"fmt"
	"io"
	"io/fs"

	"surge/spec"
)

// readSchemas reads the schema_file of each client of s, the spec at name
// in fsys, relative to the spec, into its response format.
func readSchemas(fsys fs.FS, name string, s *spec.Spec) error {
	for i := range s.Clients {
		c := &s.Clients[i]
		if c.SchemaFile == "" || c.Options == nil || c.Options.Format == nil {
			continue
		}
		p := SpecRelative(name, c.SchemaFile)
		data, err := readBounded(fsys, p, spec.MaxSchemaBytes)
		if err == nil {
			c.Options.Format.Schema, err = spec.ReadSchema(p, data)
		}
		if err != nil {
			return fmt.Errorf("spec %s: client %s: response_format: %w", name, c.Name, err)
		}
	}
	return nil
}

// readBounded reads the file p of fsys, at most limit bytes and one more,
// which says it is longer.
func readBounded(fsys fs.FS, p string, limit int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}
