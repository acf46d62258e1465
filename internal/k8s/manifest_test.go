package k8s

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.yaml")

// base is a valid Config the tests vary.
func base() Config {
	return Config{
		Name:    "surge-chat",
		Image:   "ghcr.io/acme/surge:v0.3.0",
		Shards:  16,
		Target:  "http://vllm.llm.svc:8000",
		StartAt: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		Spec:    []byte("version: 1\nname: chat\n"),
	}
}

// full uses every option.
func full() Config {
	c := base()
	c.Namespace = "load"
	c.Files = []File{{Path: "tok/tokenizer.json", Data: []byte(`{"model":{}}`)}, {Path: "corpus.bin", Data: []byte{0xff, 0xfe, 0}}}
	c.Output = Output{Claim: "surge-out", Size: "20Gi"}
	c.Resources = Size(Load{PeakRate: 12000, InFlight: 5000}, DefaultRPSPerCore)
	c.APIKeySecret = "vllm-key:token"
	c.Salt = "5eed5a17"
	c.Args = []string{"--slo", "ttft.p99<=2s", "--seed", "7"}
	return c
}

func mustManifests(t *testing.T, c Config) Manifest {
	t.Helper()
	m, err := Manifests(c)
	if err != nil {
		t.Fatalf("Manifests: %v", err)
	}
	return m
}

func TestManifestsJob(t *testing.T) {
	t.Parallel()
	m := mustManifests(t, full())
	js := m.Job.Spec
	if *js.CompletionMode != batchv1.IndexedCompletion || *js.Completions != 16 || *js.Parallelism != 16 {
		t.Errorf("job mode %s completions %d parallelism %d, want Indexed 16 16", *js.CompletionMode, *js.Completions, *js.Parallelism)
	}
	if js.BackoffLimitPerIndex == nil || *js.BackoffLimitPerIndex != 0 || js.BackoffLimit != nil {
		t.Errorf("job retries: backoffLimitPerIndex %v backoffLimit %v, want 0 and unset: a late retry would break the shared start", js.BackoffLimitPerIndex, js.BackoffLimit)
	}
	p := js.Template.Spec
	if p.RestartPolicy != corev1.RestartPolicyNever || *p.AutomountServiceAccountToken {
		t.Errorf("pod restart %s, token mounted %v: want Never and no token", p.RestartPolicy, *p.AutomountServiceAccountToken)
	}
	c := p.Containers[0]
	wantArgs := []string{"run", "/spec/spec.yaml", "--target", "http://vllm.llm.svc:8000",
		"--shard", "$(JOB_COMPLETION_INDEX)/16", "--start-at", "2026-11-30T12:00:00Z",
		"-o", "/out/shard-$(JOB_COMPLETION_INDEX)", "--api-key-env", "SURGE_API_KEY", "--salt", "5eed5a17",
		"--slo", "ttft.p99<=2s", "--seed", "7"}
	if !slices.Equal(c.Args, wantArgs) {
		t.Errorf("args\n %q\nwant\n %q", c.Args, wantArgs)
	}
	if e := c.Env[0]; e.Name != IndexEnv || e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("first env %+v, want JOB_COMPLETION_INDEX from the completion-index annotation (it must precede its use in args)", e)
	}
	if e := c.Env[2]; e.Name != "SURGE_API_KEY" || e.ValueFrom.SecretKeyRef.Name != "vllm-key" || e.ValueFrom.SecretKeyRef.Key != "token" {
		t.Errorf("api key env %+v, want SURGE_API_KEY from secret vllm-key key token", e)
	}
	if c.Resources.Limits.Cpu().String() != "5" || c.Resources.Requests.Memory().String() != "491Mi" {
		t.Errorf("resources %v, want 5 cores (2 × 12000 / 5000 rounded up) and 491Mi", c.Resources)
	}
}

func TestManifestsSecurity(t *testing.T) {
	t.Parallel()
	p := mustManifests(t, base()).Job.Spec.Template.Spec
	ps, cs := p.SecurityContext, p.Containers[0].SecurityContext
	if !*ps.RunAsNonRoot || *ps.RunAsUser != nonRoot || *ps.FSGroup != nonRoot || ps.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod security %+v, want non-root 65532, fsGroup 65532 (claims writable), RuntimeDefault seccomp", ps)
	}
	if !*cs.RunAsNonRoot || *cs.AllowPrivilegeEscalation || !*cs.ReadOnlyRootFilesystem || !slices.Equal(cs.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("container security %+v, want non-root, no escalation, read-only root, all capabilities dropped", cs)
	}
}

func TestManifestsVolumes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		output Output
		check  func(corev1.VolumeSource) bool
		claim  bool
		reason string
	}{
		{Output{}, func(v corev1.VolumeSource) bool { return v.EmptyDir != nil }, false, "the default: an emptyDir"},
		{Output{Claim: "out"}, func(v corev1.VolumeSource) bool { return v.PersistentVolumeClaim.ClaimName == "out" }, false, "an existing claim is mounted, not created"},
		{Output{Claim: "out", Size: "5Gi"}, func(v corev1.VolumeSource) bool { return v.PersistentVolumeClaim.ClaimName == "out" }, true, "a sized claim is created too"},
		{Output{HostPath: "/srv/surge"}, func(v corev1.VolumeSource) bool {
			return v.HostPath.Path == "/srv/surge" && *v.HostPath.Type == corev1.HostPathDirectoryOrCreate
		}, false, "a node directory"},
	}
	for _, tt := range tests {
		c := full()
		c.Output = tt.output
		m := mustManifests(t, c)
		p := m.Job.Spec.Template.Spec
		mounts := map[string]corev1.VolumeMount{}
		for _, vm := range p.Containers[0].VolumeMounts {
			mounts[vm.Name] = vm
		}
		vols := map[string]corev1.VolumeSource{}
		for _, v := range p.Volumes {
			vols[v.Name] = v.VolumeSource
		}
		if mounts["out"].MountPath != "/out" || !tt.check(vols["out"]) {
			t.Errorf("%s: out mount %+v volume %+v (%s)", tt.output, mounts["out"], vols["out"], tt.reason)
		}
		if (m.Claim != nil) != tt.claim || len(m.Objects()) != 2+btoi(tt.claim) {
			t.Errorf("%s: claim %v, %d objects (%s)", tt.output, m.Claim, len(m.Objects()), tt.reason)
		}
		if s := mounts["spec"]; s.MountPath != "/spec" || !s.ReadOnly {
			t.Errorf("%s: spec mount %+v, want /spec read-only", tt.output, s)
		}
		items := vols["spec"].ConfigMap.Items
		want := []corev1.KeyToPath{{Key: "spec.yaml", Path: "spec.yaml"}, {Key: "file-0", Path: "tok/tokenizer.json"}, {Key: "file-1", Path: "corpus.bin"}}
		if !slices.Equal(items, want) {
			t.Errorf("%s: spec items %+v, want %+v", tt.output, items, want)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestManifestsConfigMap(t *testing.T) {
	t.Parallel()
	cm := mustManifests(t, full()).ConfigMap
	if cm.Name != "surge-chat-spec" || cm.Namespace != "load" {
		t.Errorf("configmap %s/%s, want load/surge-chat-spec", cm.Namespace, cm.Name)
	}
	if cm.Data["spec.yaml"] != "version: 1\nname: chat\n" || cm.Data["file-0"] != `{"model":{}}` {
		t.Errorf("configmap data %q, want the spec and the tokenizer as text", cm.Data)
	}
	if !bytes.Equal(cm.BinaryData["file-1"], []byte{0xff, 0xfe, 0}) {
		t.Errorf("configmap binary data %v, want the corpus bytes (not UTF-8)", cm.BinaryData)
	}
}

func TestManifestsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		edit   func(*Config)
		want   string
		reason string
	}{
		{func(c *Config) { c.Shards = -1 }, "shards -1: want at least 1", "no shards"},
		{func(c *Config) { c.Target = "" }, "target missing", "the pods need a server"},
		{func(c *Config) { c.Target = "vllm:8000" }, "want an http:// or https:// URL", "no scheme"},
		{func(c *Config) { c.Target = "http://127.0.0.1:8000" }, "is the pod itself", "loopback reaches the pod, not the server"},
		{func(c *Config) { c.Target = "llama=http://a:1,qwen=http://localhost:2" }, "is the pod itself", "each model's URL is checked"},
		{func(c *Config) { c.Image = "" }, "image missing", "no image"},
		{func(c *Config) { c.Image = "GHCR.io/Acme/Surge" }, "path in lowercase", "uppercase path"},
		{func(c *Config) { c.Image = "surge:" }, "image \"surge:\"", "empty tag"},
		{func(c *Config) { c.Image = "surge latest" }, "image \"surge latest\"", "a space"},
		{func(c *Config) { c.Name = "" }, "name missing", "no name"},
		{func(c *Config) { c.Name = "Surge_Chat" }, "name \"Surge_Chat\"", "not a DNS label"},
		{func(c *Config) { c.Name = strings.Repeat("a", 53) }, "at most 52", "no room for the pod suffix"},
		{func(c *Config) { c.Namespace = "Load" }, "namespace \"Load\"", "not a DNS label"},
		{func(c *Config) { c.StartAt = time.Time{} }, "start instant missing", "shards need one instant"},
		{func(c *Config) { c.Spec = nil }, "spec missing", "nothing to run"},
		{func(c *Config) { c.Files = []File{{Path: "../tok.json", Data: []byte("x")}} }, "inside its own folder", "outside the spec's folder"},
		{func(c *Config) { c.Files = []File{{Path: "/etc/tok.json", Data: []byte("x")}} }, "inside its own folder", "absolute path"},
		{func(c *Config) { c.Files = []File{{Path: "spec.yaml", Data: []byte("x")}} }, "clashes with spec.yaml", "the spec's own name"},
		{func(c *Config) { c.Files = []File{{Path: "big", Data: make([]byte, MaxConfigMapBytes)}} }, "over the", "too big for a ConfigMap"},
		{func(c *Config) {
			c.Files = []File{{Path: "bin", Data: bytes.Repeat([]byte{0xff}, MaxConfigMapBytes*3/4)}}
		}, "over the", "binary data counts base64-encoded"},
		{func(c *Config) { c.Output = Output{Claim: "a", HostPath: "/b"} }, "choose one", "two outputs"},
		{func(c *Config) { c.APIKeySecret = "vllm-key" }, "want SECRET:KEY", "no key"},
		{func(c *Config) { c.Args = []string{"--shard", "1/2"} }, "extra argument --shard", "the manifests set the shard"},
		{func(c *Config) { c.Args = []string{"--start-at=2026-01-01T00:00:00Z"} }, "extra argument --start-at", "flag=value form"},
		{func(c *Config) { c.Args = []string{"-o/tmp/x"} }, "extra argument -o/tmp/x", "short flag with its value"},
		{func(c *Config) { c.Args = []string{"--salt", "x"} }, "extra argument --salt", "the manifests set one salt for all shards"},
		{func(c *Config) { c.Salt = "a b" }, `salt "a b"`, "a space would change the salt's token count"},
	}
	for _, tt := range tests {
		c := base()
		tt.edit(&c)
		_, err := Manifests(c)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Manifests error = %v, want one containing %q (%s)", err, tt.want, tt.reason)
		}
	}
	// Validate lists every problem, not the first.
	c := Config{Shards: -2}
	err := c.Validate()
	for _, want := range []string{"name missing", "image missing", "shards -2", "target missing", "start instant missing", "spec missing"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate of an empty config = %v, want it to contain %q", err, want)
		}
	}
}

func TestImageRefs(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"surge", "surge:latest", "acme/surge:v0.3.0-rc.1", "ghcr.io/acme/surge:v0.3.0",
		"localhost:5000/surge", "registry.example.com:443/a/b/c_d__e-f:tag",
		"ghcr.io/acme/surge@sha256:" + strings.Repeat("ab", 32), "ghcr.io/acme/surge:v1@sha256:" + strings.Repeat("0", 64)} {
		if err := checkImage(ok); err != nil {
			t.Errorf("checkImage(%q) = %v, want it accepted", ok, err)
		}
	}
	for _, bad := range []string{"-surge", "surge:-x", "acme//surge", "surge@sha256:abc", "http://ghcr.io/surge", "surge:" + strings.Repeat("t", 129)} {
		if checkImage(bad) == nil {
			t.Errorf("checkImage(%q) accepted, want refused", bad)
		}
	}
}

// TestRoundTrip writes the manifests as YAML, decodes them back into the
// typed objects and compares: what kubectl reads is what Manifests built.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []Config{base(), full()} {
		objs := mustManifests(t, c).Objects()
		var buf bytes.Buffer
		if err := Write(&buf, objs); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(strings.NewReader("# a comment\n" + buf.String() + "---\n"))
		if err != nil {
			t.Fatalf("Decode: %v\n%s", err, buf.String())
		}
		if !equality.Semantic.DeepEqual(objs, back) {
			t.Errorf("round trip differs:\nwrote %+v\nread  %+v", objs, back)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		reason   string
	}{
		{"apiVersion: v1\nkind: Pod\n", `kind "Pod"`, "a kind Manifests never writes"},
		{"apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\nbogus: 1\n", `unknown field "bogus"`, "strict decoding"},
		{"---\napiVersion: v1\nkind: ConfigMap\n---\n: : :\n", "document 2", "errors name the document"},
	}
	for _, tt := range tests {
		_, err := Decode(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%q) error = %v, want one containing %q (%s)", tt.in, err, tt.want, tt.reason)
		}
	}
}

func TestGolden(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := Write(&buf, mustManifests(t, full()).Objects()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "full.golden.yaml")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("manifests differ from %s (go test -update rewrites it):\n%s", golden, buf.String())
	}
}
