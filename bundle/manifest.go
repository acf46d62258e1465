package bundle

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"surge/trace"
)

// Format is the manifest format version this package writes and reads.
const Format = 1

// ManifestFile is the manifest's name in a bundle directory.
const ManifestFile = "manifest.json"

// Manifest says what produced a bundle. Every field is safe to share:
// URLs and command lines are redacted before they are set.
type Manifest struct {
	Format  int      `json:"surge_bundle"`
	Tool    string   `json:"tool"`    // surge version, commit, Go version, OS/arch
	Command []string `json:"command"` // the command line, redacted
	// Spec is the workload spec as given (nil for a run of a trace file).
	Spec *Spec `json:"spec,omitempty"`
	// Workload identifies what was sent, from the trace's header.
	WorkloadHash  string `json:"workload_hash"`
	SpecHash      string `json:"spec_hash,omitempty"`
	Seed          uint64 `json:"seed"`
	Tokenizer     string `json:"tokenizer,omitempty"`
	TokenizerHash string `json:"tokenizer_hash,omitempty"`
	ContentHash   string `json:"content_hash,omitempty"`
	// Datasets are the files clients' prompts were read from, by client
	// name, as the trace's header names them.
	Datasets map[string]*trace.Dataset `json:"datasets,omitempty"`
	Salt     string                    `json:"salt,omitempty"` // the nonce before every conversation
	// Target is where the requests went, redacted; Server what it said
	// about itself.
	Target string  `json:"target"`
	Server *Server `json:"server,omitempty"`
	Host   Host    `json:"host"`
	// Start and End bound the run in wall-clock time; WarmupUS is the
	// warmup window from Start, excluded from the figures.
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	WarmupUS    int64     `json:"warmup_us,omitempty"`
	Interrupted bool      `json:"interrupted"`
	// Aborted, as in the records' end line, says why the run stopped
	// itself early (Interrupted is then set too); Ending decides.
	Aborted string `json:"aborted,omitempty"`
	// Files are the bundle's other files by name.
	Files map[string]File `json:"files"`
}

// Ending is how the run ended, as the manifest says (trace.EndingOf).
func (m *Manifest) Ending() trace.Ending {
	return trace.EndingOf(&trace.RunEnd{Interrupted: m.Interrupted, Aborted: m.Aborted})
}

// Spec is a workload spec as given and as resolved.
type Spec struct {
	Path  string `json:"path"`
	Given string `json:"given"` // the file's text
	// Resolved is the spec's canonical form after command-line overrides
	// (seed, length, SLOs), the text SpecHash is taken of.
	Resolved string `json:"resolved"`
}

// Server is what the target said about itself before the run.
type Server struct {
	// Models is the target's GET /v1/models answer (as sent, but for
	// whitespace); Model the first model id in it.
	Models json.RawMessage `json:"models,omitempty"`
	Model  string          `json:"model,omitempty"`
	// Headers are the answer's headers that name the server or a version
	// (Server, X-Version…).
	Headers map[string]string `json:"headers,omitempty"`
	// Error says why the answer is missing.
	Error string `json:"error,omitempty"`
}

// Host is the machine surge ran on.
type Host struct {
	CPUs   int    `json:"cpus"`
	OS     string `json:"os"`
	Arch   string `json:"arch"`
	Kernel string `json:"kernel,omitempty"`
}

// File is one file of a bundle.
type File struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Write writes m as indented JSON.
func (m *Manifest) Write(w io.Writer) error {
	m.Format = Format
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("writing manifest: %w", err)
	}
	return nil
}

// Read reads a manifest.
func Read(r io.Reader) (*Manifest, error) {
	var m Manifest
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	if m.Format < 1 || m.Format > Format {
		return nil, fmt.Errorf("manifest format %d is not supported (this surge reads 1 to %d)", m.Format, Format)
	}
	return &m, nil
}
