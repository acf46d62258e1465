package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"strings"
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

// Status is what verifying one file of a bundle found.
type Status int

const (
	// Verified: its size and SHA-256 are the manifest's.
	Verified Status = iota
	// Mismatch: its size or SHA-256 differ from the manifest's, or it
	// could not be read.
	Mismatch
	// Missing: the manifest names it and the bundle does not hold it.
	Missing
	// Unlisted: the bundle holds it and the manifest does not name it
	// (a file added after the manifest was written).
	Unlisted
	// Unchecked: there is no manifest to check it against.
	Unchecked
)

// String is the word inspect prints for s.
func (s Status) String() string {
	switch s {
	case Verified:
		return "verified"
	case Mismatch:
		return "does not match"
	case Missing:
		return "missing"
	case Unlisted:
		return "not in the manifest"
	case Unchecked:
		return "unchecked"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// FileCheck is what verifying one file found.
type FileCheck struct {
	Name   string
	Bytes  int64 // its size, when present
	Status Status
	Err    error // for Mismatch, how it differs
}

// Verification is what Verify found in a bundle.
type Verification struct {
	// Files are the files the bundle holds or its manifest names, by
	// name.
	Files []FileCheck
	// TraceHash is trace.jsonl's workload hash, to be WantHash, the
	// hash the manifest gives, or, without one, the records header's;
	// both are empty when there is nothing to compare.
	TraceHash, WantHash string
	// Problems are the checks that failed, in words.
	Problems []string
}

// OK reports whether every check passed: every file present verifies
// (a missing file is not a failure: Bundle.Missing lists it), the
// manifest and records read, and the trace is the run's workload.
func (v *Verification) OK() bool { return len(v.Problems) == 0 }

// Err is nil when every check passed, else an error listing the
// problems of the bundle at dir, which holds a manifest or not (then
// it is a run directory, killed or interrupted before its manifest).
func (v *Verification) Err(dir string, manifest bool) error {
	problems := strings.Join(v.Problems, "\n  ")
	switch {
	case v.OK():
		return nil
	case !manifest:
		return fmt.Errorf("%s is a run directory without %s, and what it holds does not check out:\n  %s", dir, ManifestFile, problems)
	}
	return fmt.Errorf("bundle %s does not check out:\n  %s", dir, problems)
}

// Verify checks every file of the bundle against the size and SHA-256
// its manifest gives, and trace.jsonl's workload hash against the
// manifest's or, without a manifest, the records header's.
func (b *Bundle) Verify() *Verification {
	v := &Verification{}
	if b.ManifestErr != nil {
		v.Problems = append(v.Problems, fmt.Sprintf("%s: %v", ManifestFile, b.ManifestErr))
	}
	if b.Records == nil && b.RecordsErr != nil {
		v.Problems = append(v.Problems, b.RecordsErr.Error())
	}
	for _, name := range b.checked() {
		c := b.verifyFile(name)
		if c.Status == Mismatch {
			v.Problems = append(v.Problems, c.Err.Error())
		}
		v.Files = append(v.Files, c)
	}
	b.verifyTrace(v)
	return v
}

// checked names the files Verify looks at: those present and those the
// manifest names, but the manifest itself.
func (b *Bundle) checked() []string {
	var names []string
	for name := range b.Present {
		names = append(names, name)
	}
	if b.Manifest != nil {
		for name := range b.Manifest.Files {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return slices.DeleteFunc(names, func(name string) bool { return name == ManifestFile })
}

// verifyFile checks the file name against the manifest.
func (b *Bundle) verifyFile(name string) FileCheck {
	c := FileCheck{Name: name, Bytes: b.Present[name]}
	_, listed := b.Manifest.file(name)
	switch {
	case b.Manifest == nil:
		c.Status = Unchecked
	case !b.Has(name):
		c.Status = Missing
	case !listed:
		c.Status = Unlisted
	case !fs.ValidPath(name):
		c.Status, c.Err = Mismatch, fmt.Errorf("%s: not a file name of the bundle", name)
	default:
		c.Err = b.verifyContent(name)
		if c.Err != nil {
			c.Status = Mismatch
		}
	}
	return c
}

// verifyContent reads the file name and compares it with the manifest.
func (b *Bundle) verifyContent(name string) error {
	f, err := b.fsys.Open(name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer f.Close()
	return b.Manifest.Verify(name, f)
}

// file is what m says of the file name; a nil manifest names nothing.
func (m *Manifest) file(name string) (File, bool) {
	if m == nil {
		return File{}, false
	}
	f, ok := m.Files[name]
	return f, ok
}

// verifyTrace compares trace.jsonl's workload hash with the manifest's,
// or the records header's without a manifest.
func (b *Bundle) verifyTrace(v *Verification) {
	switch {
	case b.Manifest != nil:
		v.WantHash = b.Manifest.WorkloadHash
	case b.Records != nil:
		v.WantHash = b.Records.Header.WorkloadHash
	}
	if !b.Has(TraceFile) {
		return
	}
	hash, err := b.TraceHash()
	if err != nil {
		v.Problems = append(v.Problems, err.Error())
		return
	}
	v.TraceHash = hash
	if v.WantHash != "" && hash != v.WantHash {
		v.Problems = append(v.Problems, fmt.Sprintf("%s has workload hash %s, the %s says %s", TraceFile, hash, b.hashSource(), v.WantHash))
	}
}

// hashSource names where the run's workload hash comes from.
func (b *Bundle) hashSource() string {
	if b.Manifest != nil {
		return "manifest"
	}
	return "records header"
}
