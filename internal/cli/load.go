package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"surge/content"
	"surge/spec"
)

// loadSpec reads and parses the spec at path ("-" for stdin).
func loadSpec(path string, stdin io.Reader) (*spec.Spec, error) {
	data, err := readSpecText(path, stdin)
	if err != nil {
		return nil, err
	}
	return spec.Parse(specName(path), data)
}

// readSpecText reads the spec file at path ("-" for stdin).
func readSpecText(path string, stdin io.Reader) ([]byte, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("reading spec: %w", err)
	}
	return data, nil
}

// specName is how messages name the spec at path.
func specName(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return path
}

// relTo resolves a path written in the spec at specPath relative to the
// spec's directory, so a spec works from any working directory.
func relTo(specPath, p string) string {
	if p == "" || filepath.IsAbs(p) || specPath == "-" {
		return p
	}
	return filepath.Join(filepath.Dir(specPath), p)
}

// openContent loads the spec's tokenizer and prompt synthesiser.
func openContent(specPath string, s *spec.Spec) (content.Tokenizer, *content.Synth, error) {
	name := s.Tokenizer
	if !content.IsBuiltin(name) {
		name = relTo(specPath, name)
	}
	tok, err := openTokenizer(name)
	if err != nil {
		return nil, nil, fmt.Errorf("spec %s: tokenizer: %w", specPath, err)
	}
	var cfg content.SynthConfig
	if s.Corpus != "" {
		path := relTo(specPath, s.Corpus)
		if cfg.Corpus, err = os.ReadFile(path); err != nil {
			return nil, nil, fmt.Errorf("spec %s: corpus: %w", specPath, err)
		}
	}
	synth, err := content.NewSynth(tok, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("spec %s: preparing prompt text: %w", specPath, err)
	}
	return tok, synth, nil
}
