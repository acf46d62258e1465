package harness

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"surge/bundle"
	"surge/internal/redact"
	"surge/trace"
)

// writeTrace writes the workload of a run to DIR/trace.jsonl: the trace's
// own bytes as they are, or its sessions, checking that the file's
// workload hash is the run's.
func writeTrace(dir string, in *Workload) error {
	path := filepath.Join(dir, bundle.TraceFile)
	if in.Raw != nil {
		src, err := in.Raw()
		if err != nil {
			return err
		}
		defer src.Close()
		return writeFile(path, func(w io.Writer) error {
			_, err := io.Copy(w, src)
			return err
		})
	}
	return writeFile(path, func(w io.Writer) error {
		tw, err := trace.NewWriter(w, in.Header)
		if err != nil {
			return err
		}
		for _, s := range in.Sessions {
			if err := tw.Write(s); err != nil {
				return err
			}
		}
		hash, err := tw.Close()
		if err == nil && hash != in.Hash {
			err = fmt.Errorf("the trace written has workload hash %s, the run's is %s", hash, in.Hash)
		}
		return err
	})
}

// manifest is the bundle's manifest of a run of in against target, but
// for its files.
func manifest(cfg *Config, in *Workload, target, salt string, start time.Time, end trace.RunEnd) *bundle.Manifest {
	h := in.Header
	m := &bundle.Manifest{
		Tool: tool(cfg), Command: bundle.RedactArgs(cfg.Command),
		WorkloadHash: in.Hash, SpecHash: h.SpecHash, Seed: h.Seed, Tokenizer: h.Tokenizer,
		TokenizerHash: h.TokenizerHash, ContentHash: h.ContentHash, Salt: salt,
		Target: redact.URL(target), Host: cfg.Host,
		Start: start, End: end.End, WarmupUS: h.WarmupUS, Interrupted: end.Interrupted, Aborted: end.Aborted,
	}
	for _, c := range h.Clients {
		if c.Dataset != nil {
			if m.Datasets == nil {
				m.Datasets = map[string]*trace.Dataset{}
			}
			m.Datasets[c.Name] = c.Dataset
		}
	}
	if in.Spec != nil {
		m.Spec = &bundle.Spec{Path: in.SpecPath, Given: string(in.SpecText), Resolved: string(in.Spec.Canonical())}
	}
	return m
}
