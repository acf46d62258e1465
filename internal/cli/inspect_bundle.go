package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"surge/bundle"
	"surge/report"
)

// isBundle reports whether path is a directory holding a bundle, whole or
// partial: a manifest, records or a trace.
func isBundle(path string) bool {
	if path == "-" {
		return false
	}
	for _, name := range []string{bundle.ManifestFile, bundle.RecordsFile, bundle.TraceFile} {
		if _, err := os.Stat(filepath.Join(path, name)); err == nil {
			return true
		}
	}
	return false
}

// notBundle explains why the directory at path is not a bundle; nil when
// path is not a directory.
func notBundle(path string) error {
	info, err := os.Stat(path)
	if path == "-" || err != nil || !info.IsDir() {
		return nil
	}
	return fmt.Errorf("%s is a directory, neither a trace nor a bundle (no %s, %s or %s)", path, bundle.ManifestFile, bundle.RecordsFile, bundle.TraceFile)
}

// inspectBundle prints what the bundle in dir holds and what it lacks
// (report.BundleText). It fails when a check does; a missing file is
// said, not failed.
func inspectBundle(w io.Writer, dir string) error {
	b, err := bundle.Open(os.DirFS(dir))
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	v := b.Verify()
	if err := report.BundleText(w, dir, b, v); err != nil {
		return err
	}
	switch problems := strings.Join(v.Problems, "\n  "); {
	case v.OK():
		return nil
	case !b.Has(bundle.ManifestFile):
		return fmt.Errorf("%s is a run directory without %s, and what it holds does not check out:\n  %s", dir, bundle.ManifestFile, problems)
	default:
		return fmt.Errorf("bundle %s does not check out:\n  %s", dir, problems)
	}
}
