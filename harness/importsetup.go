package harness

import (
	"fmt"
	"io/fs"

	"surge/content"
	"surge/trace/importers"
)

// ImportSetup completes the options of an import of the named files of
// fsys: it checks them (importers.ImportOptions.Check), detects the
// files' format when opts name none (or guesses a generic file's columns,
// importers.ImportOptions.Detected) and checks the options that format
// takes, and for ShareGPT loads the tokenizer that counts its tokens,
// tokenizer (a built-in name, or a tokenizer.json or model folder in
// fsys; "" is o200k_base). An option out of range is a ConfigError.
func ImportSetup(fsys fs.FS, names []string, opts importers.ImportOptions, tokenizer string) (importers.ImportOptions, error) {
	if err := opts.Check(names); err != nil {
		return opts, ConfigError{err}
	}
	if opts.Format == "" {
		var err error
		if opts, err = opts.Detected(fsys, names); err != nil {
			return opts, err
		}
		if err := opts.Check(names); err != nil { // the detected format's own options
			return opts, ConfigError{err}
		}
	}
	if tokenizer == "" {
		tokenizer = "o200k_base"
	}
	if opts.Format == importers.FormatShareGPT && opts.Count == nil {
		tok, err := content.OpenFS(fsys, tokenizer)
		if err != nil {
			return opts, ConfigError{fmt.Errorf("--tokenizer: %w", err)}
		}
		opts.Count = func(s string) int { return len(tok.Encode(s)) }
		opts.Tokenizer, opts.TokenizerHash = tok.Name(), content.Fingerprint(tok)
	}
	return opts, nil
}
