package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"surge/internal/k8s"
	"surge/trace"
)

// k8sMain runs `surge k8s args...` and returns the exit code, stdout and
// stderr, adding the command to the root if main.go does not yet.
func k8sMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot(strings.NewReader(""), &out, &errOut)
	if c, _, err := root.Find([]string{"k8s"}); err != nil || c == root {
		root.AddCommand(newK8s())
	}
	root.SetArgs(append([]string{"k8s"}, args...))
	err := root.ExecuteContext(context.Background())
	var usage usageError
	var silent silentError
	switch {
	case err == nil:
		return exitOK, out.String(), errOut.String()
	case !errors.As(err, &silent):
		fmt.Fprintf(&errOut, "surge: %v\n", err)
	}
	if errors.As(err, &usage) {
		return exitUsage, out.String(), errOut.String()
	}
	return exitFailure, out.String(), errOut.String()
}

// decodeK8s decodes manifests and returns the Job and ConfigMap.
func decodeK8s(t *testing.T, yaml string) ([]runtime.Object, *batchv1.Job, *corev1.ConfigMap) {
	t.Helper()
	objs, err := k8s.Decode(strings.NewReader(yaml))
	if err != nil {
		t.Fatalf("decoding the manifests: %v\n%s", err, yaml)
	}
	var job *batchv1.Job
	var cm *corev1.ConfigMap
	for _, o := range objs {
		switch o := o.(type) {
		case *batchv1.Job:
			job = o
		case *corev1.ConfigMap:
			cm = o
		}
	}
	if job == nil || cm == nil {
		t.Fatalf("manifests without a Job or ConfigMap:\n%s", yaml)
	}
	return objs, job, cm
}

func TestK8sGolden(t *testing.T) {
	t.Parallel()
	code, out, errOut := k8sMain(t, "testdata/small.yaml", "--shards", "4", "--target", "http://vllm.llm.svc:8000",
		"--image", "ghcr.io/acme/surge:v0.3.0", "--start-at", "2026-11-30T12:00:00Z",
		"--output-volume", "pvc:surge-out:10Gi", "--seed", "7", "--salt", "5eed5a17", "--", "--slo", "ttft.p99<=2s")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	golden(t, "k8s.golden.yaml", out)
	objs, job, cm := decodeK8s(t, out)
	if len(objs) != 3 {
		t.Errorf("%d objects, want ConfigMap, claim and Job", len(objs))
	}
	spec, _ := os.ReadFile("testdata/small.yaml")
	if cm.Data["spec.yaml"] != string(spec) {
		t.Errorf("ConfigMap spec differs from testdata/small.yaml:\n%s", cm.Data["spec.yaml"])
	}
	c := job.Spec.Template.Spec.Containers[0]
	want := []string{"run", "/spec/spec.yaml", "--target", "http://vllm.llm.svc:8000", "--shard", "$(JOB_COMPLETION_INDEX)/4",
		"--start-at", "2026-11-30T12:00:00Z", "-o", "/out/shard-$(JOB_COMPLETION_INDEX)", "--salt", "5eed5a17", "--seed", "7", "--slo", "ttft.p99<=2s"}
	if !slices.Equal(c.Args, want) {
		t.Errorf("args %q\nwant %q", c.Args, want)
	}
	if job.Name != "surge" || *job.Spec.Parallelism != 4 {
		t.Errorf("job %s parallelism %d, want surge (the spec has no name) and 4", job.Name, *job.Spec.Parallelism)
	}
	if !strings.Contains(errOut, "4 shards, each 1 CPU") || strings.Contains(errOut, "warning") {
		t.Errorf("stderr %q, want the sizing and no warning (the claim keeps the bundles)", errOut)
	}
}

func TestK8sDirAndFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := os.ReadFile("../../content/testdata/corpus.txt")
	writeSpec(t, dir, "corpus.txt", string(corpus))
	spec := writeSpec(t, dir, "s.yaml", "version: 1\nname: My Chat!\nrequests: 50\nrate: 10/s\ncorpus: corpus.txt\n"+
		"clients:\n  - name: c\n    model: m\n    input: 100\n    output: 10\n")
	out := filepath.Join(dir, "manifests")
	code, stdout, errOut := k8sMain(t, spec, "--shards", "2", "--target", "http://vllm:8000", "--cpu", "3", "--memory", "1Gi", "-o", out)
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q\n%s", code, stdout, errOut)
	}
	if !strings.Contains(errOut, "warning: --output-volume emptydir") {
		t.Errorf("stderr %q, want a warning that an emptyDir loses the bundles", errOut)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
	var all strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		all.WriteString("---\n")
		all.Write(data)
	}
	if got := []string{filepath.Base(files[0]), filepath.Base(files[1])}; len(files) != 2 || got[0] != "1-configmap.yaml" || got[1] != "2-job.yaml" {
		t.Errorf("files %v, want 1-configmap.yaml and 2-job.yaml", files)
	}
	_, job, cm := decodeK8s(t, all.String())
	if job.Name != "surge-my-chat" {
		t.Errorf("job name %q, want surge-my-chat from the spec's name", job.Name)
	}
	if cm.Data["file-0"] != string(corpus) {
		t.Errorf("the corpus the spec names is not in the ConfigMap")
	}
	items := job.Spec.Template.Spec.Volumes[0].ConfigMap.Items
	if len(items) != 2 || items[1] != (corev1.KeyToPath{Key: "file-0", Path: "corpus.txt"}) {
		t.Errorf("spec volume items %+v, want the corpus at its path beside the spec", items)
	}
	a := job.Spec.Template.Spec.Containers[0].Args
	if i := slices.Index(a, "--salt"); i < 0 || len(a[i+1]) != trace.NonceDigits {
		t.Errorf("args %q, want --salt and a new %d-digit nonce shared by every shard", a, trace.NonceDigits)
	}
	r := job.Spec.Template.Spec.Containers[0].Resources
	if r.Limits.Cpu().String() != "3" || r.Requests.Memory().String() != "1Gi" {
		t.Errorf("resources %v, want --cpu 3 and --memory 1Gi", r)
	}
}

func TestK8sErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	closed := writeSpec(t, dir, "closed.yaml", "version: 1\nrequests: 20\nclients:\n  - name: c\n    model: m\n    concurrency: 3\n    input: 10\n    output: 10\n")
	ok := []string{"testdata/small.yaml", "--shards", "4", "--target", "http://vllm:8000"}
	tests := []struct {
		args   []string
		code   int
		want   string
		reason string
	}{
		{[]string{"testdata/small.yaml", "--target", "http://vllm:8000"}, exitUsage, "--shards 0: want at least 1", "shards are required"},
		{[]string{"testdata/small.yaml", "--shards", "4"}, exitUsage, "target missing", "the pods need a server"},
		{append(ok, "--image", "Surge:latest"), exitUsage, "path in lowercase", "a bad image reference"},
		{append(ok, "--name", "Bad_Name"), exitUsage, `name "Bad_Name"`, "not a DNS label"},
		{append(ok, "--output-volume", "nfs:x"), exitUsage, "--output-volume", "an unknown volume"},
		{append(ok, "--start-at", "noon"), exitUsage, "--start-at \"noon\"", "not RFC 3339"},
		{append(ok, "--start-delay", "0s"), exitUsage, "--start-delay 0s", "the pods need time to start"},
		{append(ok, "--cpu", "lots"), exitUsage, "--cpu \"lots\"", "not a quantity"},
		{append(ok, "--client-rps-per-core", "0"), exitUsage, "--client-rps-per-core 0", "no sizing possible"},
		{append(ok, "--", "--shard", "0/2"), exitUsage, "extra argument --shard", "the manifests set the shard"},
		{append(ok, "--", "--sloo", "x"), exitUsage, "unknown flag: --sloo", "a typo caught before the pods run"},
		{append(ok, "--salt", "a b"), exitUsage, `salt "a b"`, "a nonce with a space"},
		{[]string{closed, "--shards", "4", "--target", "http://vllm:8000"}, exitUsage, "keeps 3 requests in flight", "closed loop with fewer slots than shards"},
		{[]string{"-", "--shards", "2", "--target", "http://vllm:8000"}, exitUsage, "must be a file", "stdin cannot be shipped"},
		{[]string{filepath.Join(dir, "none.yaml"), "--shards", "2", "--target", "http://vllm:8000"}, exitFailure, "none.yaml", "a missing spec"},
	}
	for _, tt := range tests {
		code, out, errOut := k8sMain(t, tt.args...)
		if code != tt.code || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("surge k8s %q: exit %d, stdout %d bytes, stderr %q; want exit %d and %q (%s)", tt.args, code, len(out), errOut, tt.code, tt.want, tt.reason)
		}
	}
}
