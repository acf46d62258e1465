package k8s

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Output is the volume mounted at /out, where pod i writes its bundle to
// /out/shard-i. Its zero value is an emptyDir.
type Output struct {
	// Claim names a PersistentVolumeClaim; every pod mounts it, so it must
	// be ReadWriteMany unless all pods land on one node.
	Claim string
	// Size, with Claim, makes the manifests create the claim too (access
	// mode ReadWriteMany, the cluster's default storage class).
	Size string
	// HostPath is a directory on each node (kind, minikube, one-node
	// clusters): each node holds the bundles of the pods it ran.
	HostPath string
}

// ParseOutput reads an output volume as String writes it: "emptydir",
// "pvc:NAME", "pvc:NAME:SIZE" (create the claim) or "hostpath:/DIR".
func ParseOutput(s string) (Output, error) {
	kind, rest, _ := strings.Cut(s, ":")
	var o Output
	switch kind {
	case "emptydir":
		if rest != "" {
			return Output{}, fmt.Errorf("output volume %q: emptydir takes no argument", s)
		}
		return o, nil
	case "pvc":
		o.Claim, o.Size, _ = strings.Cut(rest, ":")
		if o.Claim == "" {
			return Output{}, fmt.Errorf("output volume %q: claim name missing: want pvc:NAME or pvc:NAME:SIZE", s)
		}
	case "hostpath":
		o.HostPath = rest
		if rest == "" {
			return Output{}, fmt.Errorf("output volume %q: want hostpath:/DIR", s)
		}
	default:
		return Output{}, fmt.Errorf("output volume %q: want emptydir, pvc:NAME, pvc:NAME:SIZE or hostpath:/DIR", s)
	}
	if err := o.validate(); err != nil {
		return Output{}, fmt.Errorf("output volume %q: %w", s, err)
	}
	return o, nil
}

// String writes o as ParseOutput reads it.
func (o Output) String() string {
	switch {
	case o.Claim != "" && o.Size != "":
		return "pvc:" + o.Claim + ":" + o.Size
	case o.Claim != "":
		return "pvc:" + o.Claim
	case o.HostPath != "":
		return "hostpath:" + o.HostPath
	}
	return "emptydir"
}

// Durable reports whether the bundles outlive the pods that wrote them.
func (o Output) Durable() bool { return o.Claim != "" || o.HostPath != "" }

func (o Output) validate() error {
	var errs []error
	if o.Claim != "" && o.HostPath != "" {
		errs = append(errs, errors.New("a claim and a host path both given: choose one"))
	}
	if o.Claim == "" && o.Size != "" {
		errs = append(errs, fmt.Errorf("size %s without a claim name", o.Size))
	}
	if o.Claim != "" || o.Size != "" {
		if msgs := validation.IsDNS1123Subdomain(o.Claim); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("claim name %q: %s", o.Claim, strings.Join(msgs, "; ")))
		}
	}
	if o.Size != "" {
		if q, err := resource.ParseQuantity(o.Size); err != nil || q.Sign() <= 0 {
			errs = append(errs, fmt.Errorf("claim size %q: want a positive quantity like 20Gi", o.Size))
		}
	}
	if o.HostPath != "" && (!path.IsAbs(o.HostPath) || path.Clean(o.HostPath) == "/") {
		errs = append(errs, fmt.Errorf("host path %q: want an absolute directory other than /", o.HostPath))
	}
	return errors.Join(errs...)
}
