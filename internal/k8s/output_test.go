package k8s

import (
	"strings"
	"testing"
)

func TestParseOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    Output
		durable bool
		reason  string
	}{
		{"emptydir", Output{}, false, "the zero value: bundles die with the pods"},
		{"pvc:surge-out", Output{Claim: "surge-out"}, true, "an existing claim"},
		{"pvc:surge-out:20Gi", Output{Claim: "surge-out", Size: "20Gi"}, true, "a claim the manifests create"},
		{"hostpath:/var/surge", Output{HostPath: "/var/surge"}, true, "a node directory, for one-node clusters"},
	}
	for _, tt := range tests {
		got, err := ParseOutput(tt.in)
		if err != nil {
			t.Errorf("ParseOutput(%q): %v (%s)", tt.in, err, tt.reason)
			continue
		}
		if got != tt.want || got.Durable() != tt.durable {
			t.Errorf("ParseOutput(%q) = %+v durable %v, want %+v durable %v (%s)", tt.in, got, got.Durable(), tt.want, tt.durable, tt.reason)
		}
		if s := got.String(); s != tt.in {
			t.Errorf("ParseOutput(%q).String() = %q, want it back (%s)", tt.in, s, tt.reason)
		}
	}
}

func TestParseOutputErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		reason   string
	}{
		{"s3:bucket", "want emptydir, pvc:NAME", "an unknown kind"},
		{"pvc:", "claim name", "a claim without a name"},
		{"pvc:Surge_Out", "claim name", "not a DNS subdomain"},
		{"pvc:out:lots", "claim size", "a size that is no quantity"},
		{"pvc:out:-1Gi", "claim size", "a negative size"},
		{"hostpath:", "want hostpath:/DIR", "no directory"},
		{"hostpath:data", "absolute", "a relative directory"},
		{"hostpath:/", "other than /", "the node's root"},
		{"emptydir:x", "no argument", "emptydir with an argument"},
	}
	for _, tt := range tests {
		_, err := ParseOutput(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseOutput(%q) error = %v, want one containing %q (%s)", tt.in, err, tt.want, tt.reason)
		}
	}
}
