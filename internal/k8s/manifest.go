package k8s

import (
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Paths and names inside the pods.
const (
	specDir  = "/spec"
	specFile = "spec.yaml"
	outDir   = "/out"
	// IndexEnv is the variable holding the pod's completion index, the
	// shard it runs; the Job controller sets it, and the manifests declare
	// it too so that `$(JOB_COMPLETION_INDEX)` expands in the arguments.
	IndexEnv = "JOB_COMPLETION_INDEX"
	// apiKeyEnv holds the API key read from Config.APIKeySecret.
	apiKeyEnv = "SURGE_API_KEY"
	// nonRoot is the user and group the pods run as: distroless's nonroot.
	nonRoot = 65532
)

// Manifest is the set of objects of one sharded run, in the order they are
// applied.
type Manifest struct {
	ConfigMap *corev1.ConfigMap
	Claim     *corev1.PersistentVolumeClaim // nil unless Output.Size is set
	Job       *batchv1.Job
}

// Objects lists the objects of m in apply order: ConfigMap, claim, Job.
func (m Manifest) Objects() []runtime.Object {
	objs := []runtime.Object{m.ConfigMap}
	if m.Claim != nil {
		objs = append(objs, m.Claim)
	}
	return append(objs, m.Job)
}

// Manifests builds the objects that run cfg's workload as cfg.Shards
// shards, or reports every problem of cfg.
func Manifests(cfg Config) (Manifest, error) {
	if err := cfg.Validate(); err != nil {
		return Manifest{}, fmt.Errorf("kubernetes manifests: %w", err)
	}
	m := Manifest{ConfigMap: configMap(cfg), Job: job(cfg)}
	if cfg.Output.Size != "" {
		m.Claim = claim(cfg)
	}
	return m, nil
}

// meta is the metadata every object carries.
func meta(cfg Config, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: cfg.Namespace, Labels: labels(cfg)}
}

func labels(cfg Config) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":       "surge",
		"app.kubernetes.io/instance":   cfg.Name,
		"app.kubernetes.io/component":  "load-generator",
		"app.kubernetes.io/managed-by": "surge-k8s",
	}
}

func configMapName(cfg Config) string { return cfg.Name + "-spec" }

// fileKey is the ConfigMap key of the i-th file a spec names; keys may not
// hold '/', so the volume's items map each key back to its path.
func fileKey(i int) string { return "file-" + strconv.Itoa(i) }

// configMap holds the spec as spec.yaml and its files as file-0, file-1…,
// text in data and anything else in binaryData.
func configMap(cfg Config) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: meta(cfg, configMapName(cfg)),
	}
	put := func(key string, data []byte) {
		if utf8.Valid(data) {
			if cm.Data == nil {
				cm.Data = map[string]string{}
			}
			cm.Data[key] = string(data)
			return
		}
		if cm.BinaryData == nil {
			cm.BinaryData = map[string][]byte{}
		}
		cm.BinaryData[key] = data
	}
	put(specFile, cfg.Spec)
	for i, f := range cfg.Files {
		put(fileKey(i), f.Data)
	}
	return cm
}

func claim(cfg Config) *corev1.PersistentVolumeClaim {
	return &corev1.PersistentVolumeClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: meta(cfg, cfg.Output.Claim),
		Spec: corev1.PersistentVolumeClaimSpec{
			// Every shard's pod mounts the claim, on whatever node it runs.
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany},
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(cfg.Output.Size)},
			},
		},
	}
}

// job is the Indexed Job: N pods, all at once, pod i running shard i.
//
// Each index gets one try (backoffLimitPerIndex 0): a shard retried after
// the start instant would run its schedule late, so a failed shard stays
// failed, the others run on, and the merge reports it missing.
func job(cfg Config) *batchv1.Job {
	n := int32(cfg.shards())
	indexed := batchv1.IndexedCompletion
	j := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: meta(cfg, cfg.Name),
		Spec: batchv1.JobSpec{
			CompletionMode:       &indexed,
			Completions:          &n,
			Parallelism:          &n,
			BackoffLimitPerIndex: ptr(int32(0)),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels(cfg)},
				Spec:       podSpec(cfg),
			},
		},
	}
	j.Annotations = map[string]string{
		"surge/start-at": cfg.StartAt.UTC().Format(time.RFC3339Nano),
		"surge/shards":   strconv.Itoa(cfg.shards()),
		"surge/output":   cfg.Output.String(),
	}
	return j
}

func ptr[T any](v T) *T { return &v }
