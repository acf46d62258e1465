package bundle

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteManifest sets m.Files to every other regular file of the bundle
// directory dir, with its size and SHA-256, and writes m there as
// ManifestFile. It is written last, once the other files are complete.
func WriteManifest(dir string, m *Manifest) error {
	files, err := digestDir(dir)
	if err != nil {
		return fmt.Errorf("writing the manifest of %s: %w", dir, err)
	}
	m.Files = files
	f, err := os.Create(filepath.Join(dir, ManifestFile))
	if err != nil {
		return err
	}
	if err := m.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// digestDir describes every regular file of dir but the manifest.
func digestDir(dir string) (map[string]File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string]File{}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == ManifestFile {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		d, err := Digest(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		files[e.Name()] = d
	}
	return files, nil
}
