package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"runtime"
)

// Digest reads r to its end and describes it as a bundle File.
func Digest(r io.Reader) (File, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return File{}, err
	}
	return File{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Verify checks a bundle file's content against what the manifest says
// of it.
func (m *Manifest) Verify(name string, r io.Reader) error {
	want, ok := m.Files[name]
	if !ok {
		return fmt.Errorf("%s: not in the manifest", name)
	}
	got, err := Digest(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if got != want {
		return fmt.Errorf("%s: %d bytes with SHA-256 %.12s…, the manifest says %d bytes, %.12s…", name, got.Bytes, got.SHA256, want.Bytes, want.SHA256)
	}
	return nil
}

// ThisHost describes the machine this process runs on; kernel is the
// kernel's release when the caller knows it.
func ThisHost(kernel string) Host {
	return Host{CPUs: runtime.NumCPU(), OS: runtime.GOOS, Arch: runtime.GOARCH, Kernel: kernel}
}
