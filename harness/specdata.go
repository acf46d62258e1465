package harness

import (
	"fmt"
	"io/fs"

	"surge/content/dataset"
	"surge/spec"
)

// OpenDatasets reads the dataset of every client of s that has one, from
// fsys relative to the spec at name, by client name.
func OpenDatasets(fsys fs.FS, name string, s *spec.Spec) (map[string]*dataset.Set, error) {
	sets := map[string]*dataset.Set{}
	for i := range s.Clients {
		c := &s.Clients[i]
		if c.Dataset == nil {
			continue
		}
		opts := dataset.Options{Format: dataset.Format(c.Dataset.Format), Field: c.Dataset.Field,
			Conversations: c.Session.Kind == spec.KindChat}
		set, err := dataset.Read(fsys, SpecRelative(name, c.Dataset.Path), opts)
		if err != nil {
			return nil, fmt.Errorf("spec %s: client %q: %w", name, c.Name, err)
		}
		sets[c.Name] = set
	}
	return sets, nil
}
