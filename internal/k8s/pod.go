package k8s

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podSpec is a shard's pod: one surge container, run as a non-root user
// with no privileges, a read-only root file system and no service account
// token (surge never talks to the API server).
func podSpec(cfg Config) corev1.PodSpec {
	return corev1.PodSpec{
		RestartPolicy:                 corev1.RestartPolicyNever,
		AutomountServiceAccountToken:  ptr(false),
		EnableServiceLinks:            ptr(false),
		TerminationGracePeriodSeconds: ptr(int64(60)),
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot:   ptr(true),
			RunAsUser:      ptr(int64(nonRoot)),
			RunAsGroup:     ptr(int64(nonRoot)),
			FSGroup:        ptr(int64(nonRoot)),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		// Spread the shards over the nodes when the cluster allows it, so
		// that no node's network or CPU carries two shards' load.
		TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
			MaxSkew:           1,
			TopologyKey:       "kubernetes.io/hostname",
			WhenUnsatisfiable: corev1.ScheduleAnyway,
			LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/instance": cfg.Name}},
		}},
		Containers: []corev1.Container{container(cfg)},
		Volumes:    volumes(cfg),
	}
}

func container(cfg Config) corev1.Container {
	return corev1.Container{
		Name:            "surge",
		Image:           cfg.Image,
		ImagePullPolicy: corev1.PullIfNotPresent,
		Args:            args(cfg),
		Env:             env(cfg),
		Resources:       cfg.Resources,
		SecurityContext: &corev1.SecurityContext{
			RunAsNonRoot:             ptr(true),
			AllowPrivilegeEscalation: ptr(false),
			ReadOnlyRootFilesystem:   ptr(true),
			Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		},
		VolumeMounts: []corev1.VolumeMount{
			{Name: "spec", MountPath: specDir, ReadOnly: true},
			{Name: "out", MountPath: outDir},
			{Name: "tmp", MountPath: "/tmp"},
		},
	}
}

// args is the shard's command line after the image's entrypoint (surge).
// Kubernetes expands $(JOB_COMPLETION_INDEX) from the container's env.
func args(cfg Config) []string {
	index := "$(" + IndexEnv + ")"
	a := []string{
		"run", specDir + "/" + specFile,
		"--target", cfg.Target,
		"--shard", index + "/" + strconv.Itoa(cfg.shards()),
		"--start-at", cfg.StartAt.UTC().Format(time.RFC3339Nano),
		"-o", outDir + "/shard-" + index,
	}
	if cfg.APIKeySecret != "" {
		a = append(a, "--api-key-env", apiKeyEnv)
	}
	if cfg.Salt != "" {
		a = append(a, "--salt", cfg.Salt)
	}
	return append(a, cfg.Args...)
}

func env(cfg Config) []corev1.EnvVar {
	e := []corev1.EnvVar{{
		Name: IndexEnv,
		ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
			FieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']",
		}},
	}}
	if limit := goMemLimit(cfg.Resources); limit != "" {
		e = append(e, corev1.EnvVar{Name: "GOMEMLIMIT", Value: limit})
	}
	if cfg.APIKeySecret != "" {
		name, key, _ := cutSecret(cfg.APIKeySecret)
		e = append(e, corev1.EnvVar{Name: apiKeyEnv, ValueFrom: &corev1.EnvVarSource{
			SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key},
		}})
	}
	return e
}

func volumes(cfg Config) []corev1.Volume {
	items := []corev1.KeyToPath{{Key: specFile, Path: specFile}}
	for i, f := range cfg.Files {
		items = append(items, corev1.KeyToPath{Key: fileKey(i), Path: f.Path})
	}
	return []corev1.Volume{
		{Name: "spec", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: configMapName(cfg)},
			Items:                items,
			DefaultMode:          ptr(int32(0o444)),
		}}},
		{Name: "out", VolumeSource: outSource(cfg.Output)},
		{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
	}
}

func outSource(o Output) corev1.VolumeSource {
	switch {
	case o.Claim != "":
		return corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: o.Claim}}
	case o.HostPath != "":
		kind := corev1.HostPathDirectoryOrCreate
		return corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: o.HostPath, Type: &kind}}
	}
	return corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}
}
