package k8s

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// Write writes objs to w as a multi-document YAML stream, each document
// started by "---", as `kubectl apply -f -` reads it.
func Write(w io.Writer, objs []runtime.Object) error {
	for _, o := range objs {
		data, err := yaml.Marshal(o)
		if err != nil {
			return fmt.Errorf("writing %s: %w", describe(o), err)
		}
		if _, err := fmt.Fprintf(w, "---\n%s", data); err != nil {
			return fmt.Errorf("writing %s: %w", describe(o), err)
		}
	}
	return nil
}

// Decode reads a multi-document YAML stream of the kinds Manifests writes
// (ConfigMap, PersistentVolumeClaim, Job) into typed objects, refusing
// unknown kinds and unknown fields. Comments and empty documents are
// skipped.
func Decode(r io.Reader) ([]runtime.Object, error) {
	var objs []runtime.Object
	docs, err := splitDocuments(r)
	if err != nil {
		return nil, err
	}
	for i, doc := range docs {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		obj, err := newObject(tm)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i+1, tm.Kind, err)
		}
		objs = append(objs, obj)
	}
	return objs, nil
}

// newObject is an empty object of the kind tm names.
func newObject(tm metav1.TypeMeta) (runtime.Object, error) {
	switch tm.APIVersion + " " + tm.Kind {
	case "v1 ConfigMap":
		return &corev1.ConfigMap{}, nil
	case "v1 PersistentVolumeClaim":
		return &corev1.PersistentVolumeClaim{}, nil
	case "batch/v1 Job":
		return &batchv1.Job{}, nil
	}
	return nil, fmt.Errorf("kind %q of apiVersion %q: want a v1 ConfigMap or PersistentVolumeClaim, or a batch/v1 Job", tm.Kind, tm.APIVersion)
}

// splitDocuments splits a YAML stream at its "---" lines, leaving out
// documents holding only comments and blank lines.
func splitDocuments(r io.Reader) ([][]byte, error) {
	var docs [][]byte
	var cur bytes.Buffer
	content := false
	flush := func() {
		if content {
			docs = append(docs, bytes.Clone(cur.Bytes()))
		}
		cur.Reset()
		content = false
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimRight(line, " \t") == "---" {
			flush()
			continue
		}
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			content = true
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading manifests: %w", err)
	}
	flush()
	return docs, nil
}

// describe names an object in messages: "Job surge-chat".
func describe(o runtime.Object) string {
	kind := o.GetObjectKind().GroupVersionKind().Kind
	if m, ok := o.(metav1.Object); ok {
		return kind + " " + m.GetName()
	}
	return kind
}
