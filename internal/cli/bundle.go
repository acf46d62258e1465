package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"surge/bundle"
	"surge/trace"
)

// writeBundleTrace writes the workload of a run to DIR/trace.jsonl: a trace
// file's bytes as they are, or a compiled spec's sessions, checking that
// the file's workload hash is the run's.
func writeBundleTrace(dir string, in *workloadInput) error {
	path := filepath.Join(dir, "trace.jsonl")
	if in.spec == nil && in.path != "-" {
		return copyFile(in.path, path)
	}
	return writeFile(path, func(w io.Writer) error {
		tw, err := trace.NewWriter(w, in.header)
		if err != nil {
			return err
		}
		for _, s := range in.sessions {
			if err := tw.Write(s); err != nil {
				return err
			}
		}
		hash, err := tw.Close()
		if err == nil && hash != in.hash {
			err = fmt.Errorf("the trace written has workload hash %s, the run's is %s", hash, in.hash)
		}
		return err
	})
}

// copyFile copies the file at from to a new file at to.
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	return writeFile(to, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
}

// probeServer asks the target what it is (GET /v1/models) for the
// manifest: the default server, or the first by model of several.
func probeServer(ctx context.Context, base string, routes map[string]string, key string) *bundle.Server {
	if base == "" && len(routes) > 0 {
		keys := make([]string, 0, len(routes))
		for k := range routes {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		base = routes[keys[0]]
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return bundle.Probe(ctx, &http.Client{}, base, key)
}

// runRecord is what a bundle's manifest says of a run beyond its
// workload.
type runRecord struct {
	target string
	server *bundle.Server
	salt   string
	start  time.Time
	end    trace.RunEnd
}

// writeManifest writes DIR/manifest.json, naming every other file of
// the directory with its size and SHA-256; it is written last.
func writeManifest(ctx context.Context, dir string, in *workloadInput, r runRecord) error {
	h := in.header
	m := &bundle.Manifest{
		Tool: versionString(), Command: bundle.RedactArgs(commandLine(ctx)),
		WorkloadHash: in.hash, SpecHash: h.SpecHash, Seed: h.Seed, Tokenizer: h.Tokenizer,
		TokenizerHash: h.TokenizerHash, ContentHash: h.ContentHash, Salt: r.salt,
		Target: bundle.RedactURL(r.target), Server: r.server, Host: bundle.ThisHost(kernelRelease()),
		Start: r.start, End: r.end.End, WarmupUS: h.WarmupUS, Interrupted: r.end.Interrupted,
	}
	if in.spec != nil {
		m.Spec = &bundle.Spec{Path: in.path, Given: string(in.specText), Resolved: string(in.spec.Canonical())}
	}
	files, err := digestDir(dir)
	if err != nil {
		return err
	}
	m.Files = files
	return writeFile(filepath.Join(dir, bundle.ManifestFile), m.Write)
}

// digestDir describes every regular file of dir but the manifest.
func digestDir(dir string) (map[string]bundle.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string]bundle.File{}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == bundle.ManifestFile {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		d, err := bundle.Digest(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		files[e.Name()] = d
	}
	return files, nil
}

// kernelRelease is the running kernel's release on Linux, or "".
func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
