package k8s

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	"surge/spec"
	"surge/trace"
)

// prepareSpec is a spec naming a corpus beside it.
const prepareSpec = "version: 1\nname: Chat\nrequests: 4\ncorpus: corpus.txt\nclients:\n  - name: c\n    model: m\n    rate: 1/s\n    input: 10\n    output: 2\n"

// prepareOptions returns options for two shards of prepareSpec, its four
// sessions a second apart, at dir/s.yaml of fsys.
func prepareOptions(t *testing.T) Options {
	t.Helper()
	s, err := spec.Parse("s.yaml", []byte(prepareSpec))
	if err != nil {
		t.Fatal(err)
	}
	var sessions []*trace.Session
	for i := range 4 {
		sessions = append(sessions, &trace.Session{Client: "c", Index: i, AtUS: int64(i) * 1e6, Turns: []trace.Turn{{InputTokens: 10, OutputTokens: 2}}})
	}
	return Options{
		FS: fstest.MapFS{
			"dir/s.yaml":     {Data: []byte(prepareSpec)},
			"dir/corpus.txt": {Data: []byte("some words")},
		},
		Name: "dir/s.yaml", Spec: s, Header: trace.Header{Clients: []trace.ClientInfo{{Name: "c", Model: "m"}}}, Sessions: sessions,
		Config:     Config{Image: "ghcr.io/acme/surge:v1", Shards: 2, Target: "http://vllm:8000"},
		Now:        time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		StartDelay: time.Minute,
		RPSPerCore: DefaultRPSPerCore, E2E: time.Second,
	}
}

// TestPrepare fills in what Config leaves to it: the name from the spec,
// the start from Now, a shared salt, the spec and the file it names, and
// the resources sized or overridden.
func TestPrepare(t *testing.T) {
	t.Parallel()
	o := prepareOptions(t)
	o.Memory = "1Gi"
	p, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	cfg := p.Config
	if cfg.Name != "surge-chat" || !cfg.StartAt.Equal(o.Now.Add(time.Minute+time.Second)) || len(cfg.Salt) != trace.NonceDigits {
		t.Errorf("name %q, start %v, salt %q; want surge-chat, a minute and a second after now, a new nonce", cfg.Name, cfg.StartAt, cfg.Salt)
	}
	if string(cfg.Spec) != prepareSpec || len(cfg.Files) != 1 || cfg.Files[0].Path != "corpus.txt" || string(cfg.Files[0].Data) != "some words" {
		t.Errorf("spec %q, files %+v; want the spec and its corpus", cfg.Spec, cfg.Files)
	}
	r := p.Manifest.Job.Spec.Template.Spec.Containers[0].Resources
	if r.Limits.Cpu().String() != "1" || r.Requests.Memory().String() != "1Gi" {
		t.Errorf("resources %v, want 1 CPU sized and --memory 1Gi", r)
	}
	// Two sessions a shard, a second or more apart: one request in the
	// busiest second.
	if p.Load.PeakRate != 1 || !strings.Contains(p.Header, "dir/s.yaml as 2 shards") || !strings.Contains(p.Summary(), "Job surge-chat, 2 shards") {
		t.Errorf("load %+v, header %q, summary %q", p.Load, p.Header, p.Summary())
	}
}

// TestPrepareErrors refuses options out of range as OptionErrors naming
// the option, and a file it cannot read as another error.
func TestPrepareErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		change func(*Options)
		option string // "" for the Config's settings; "-" for no OptionError
		want   string
	}{
		{"no shards", func(o *Options) { o.Config.Shards = 0 }, "shards", "--shards 0: want at least 1"},
		{"fewer slots than shards", func(o *Options) { o.Header.Clients[0].Concurrency = 1 }, "shards", "--shards 2: client \"c\" keeps 1 requests in flight"},
		{"no start delay", func(o *Options) { o.StartDelay = 0 }, "start-delay", "--start-delay 0s: want a positive delay"},
		{"no sizing", func(o *Options) { o.RPSPerCore = 0 }, "client-rps-per-core", "--client-rps-per-core 0: want a positive rate"},
		{"a CPU that is no quantity", func(o *Options) { o.CPU = "lots" }, "cpu", `--cpu "lots": want a positive quantity`},
		{"no target", func(o *Options) { o.Config.Target = "" }, "", "target missing"},
		{"a missing corpus", func(o *Options) { delete(o.FS.(fstest.MapFS), "dir/corpus.txt") }, "-", "spec dir/s.yaml: open dir/corpus.txt"},
	}
	for _, tt := range tests {
		o := prepareOptions(t)
		o.Header.Clients = []trace.ClientInfo{o.Header.Clients[0]}
		tt.change(&o)
		_, err := Prepare(o)
		var oe *OptionError
		isOption := errors.As(err, &oe)
		switch {
		case err == nil || !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: %v, want %q", tt.reason, err, tt.want)
		case tt.option == "-" && isOption:
			t.Errorf("%s: %v is an OptionError of %q, want a failure to read", tt.reason, err, oe.Option)
		case tt.option != "-" && (!isOption || oe.Option != tt.option):
			t.Errorf("%s: %v, want an OptionError of %q", tt.reason, err, tt.option)
		}
	}
}

// TestPlanWrite writes the manifests as one stream headed by the header,
// and as a file per object, the same objects either way.
func TestPlanWrite(t *testing.T) {
	t.Parallel()
	p, err := Prepare(prepareOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	n, err := p.WriteTo(&out)
	if err != nil || n != int64(out.Len()) || !strings.HasPrefix(out.String(), p.Header) {
		t.Fatalf("WriteTo: %d bytes, %v; wrote %d, want them counted and the header first", n, err, out.Len())
	}
	objs, err := Decode(&out)
	if err != nil || len(objs) != 2 {
		t.Fatalf("decoding what WriteTo wrote: %d objects, %v; want ConfigMap and Job", len(objs), err)
	}
	dir := filepath.Join(t.TempDir(), "m")
	if err := p.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"1-configmap.yaml", "2-job.yaml"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(bytes.NewReader(data))
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: %d objects, %v", name, len(got), err)
		}
		_, isMap := got[0].(*corev1.ConfigMap)
		_, isJob := got[0].(*batchv1.Job)
		if (i == 0) != isMap || (i == 1) != isJob || !bytes.HasPrefix(data, []byte(p.Header)) {
			t.Errorf("%s holds a %T; want the header and the %d-th object", name, got[0], i+1)
		}
	}
}
