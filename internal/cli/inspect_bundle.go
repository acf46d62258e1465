package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"surge/bundle"
	"surge/report"
)

// isDir reports whether path names a directory ("-" is stdin).
func isDir(path string) bool {
	info, err := os.Stat(path)
	return path != "-" && err == nil && info.IsDir()
}

// inspectBundle prints what the bundle in dir holds and what it lacks
// (report.BundleText). It fails when a check does; a missing file is
// said, not failed.
func inspectBundle(w io.Writer, dir string) error {
	b, err := bundle.Open(os.DirFS(dir))
	if errors.Is(err, bundle.ErrNotBundle) {
		return fmt.Errorf("%s is a directory, neither a trace nor a bundle (%w)", dir, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	v := b.Verify()
	if err := report.BundleText(w, dir, b, v); err != nil {
		return err
	}
	return v.Err(dir, b.Has(bundle.ManifestFile))
}
