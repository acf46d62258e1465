// Package k8s writes the Kubernetes manifests that run one surge workload
// as N shards: a ConfigMap holding the spec (and the files it names), an
// optional PersistentVolumeClaim for the bundles, and an Indexed Job of N
// pods in which pod i runs
//
//	surge run /spec/spec.yaml --target URL --shard i/N --start-at T -o /out/shard-i
//
// Every pod starts its schedule at the same instant T, fixed when the
// manifests are written (no coordinator, no cluster permissions), and
// writes its own evidence bundle; `surge report shard-*/` merges them
// exactly from their raw records.
//
// Manifests builds the objects from a Config with the official k8s.io/api
// types and no I/O; Write serializes them as a multi-document YAML stream
// and Decode reads such a stream back. Size turns one shard's load, as
// PlanLoad estimates it from the workload, into CPU and memory.
package k8s
