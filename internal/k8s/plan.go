package k8s

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"surge/content"
	"surge/spec"
	"surge/trace"
)

// CheckShards refuses n shards when a closed-loop client keeps fewer
// requests in flight than there are shards: some shards would have none.
func CheckShards(clients []trace.ClientInfo, n int) error {
	for _, cl := range clients {
		if cl.Concurrency > 0 && cl.Concurrency < n {
			return fmt.Errorf("client %q keeps %d requests in flight, fewer than the shards: use at most %d", cl.Name, cl.Concurrency, cl.Concurrency)
		}
	}
	return nil
}

// StartAt is the instant every shard starts when the manifests are
// written at now: delay later, rounded up to a whole second, in UTC.
func StartAt(now time.Time, delay time.Duration) time.Time {
	return now.UTC().Add(delay).Truncate(time.Second).Add(time.Second)
}

// SharedSalt is the salt all shards share: salt when given, none when the
// workload says salt: none, else a new nonce. One salt for all keeps the
// prompts of sessions that share a system prompt identical across shards,
// as in one run.
func SharedSalt(salt string, h trace.Header) string {
	if salt != "" || h.Salt == trace.SaltNone {
		return salt
	}
	return trace.NewNonce()
}

var notLabel = regexp.MustCompile(`[^a-z0-9-]+`)

// DefaultName is the Job's name for a spec named specName: surge-NAME made
// a DNS label of at most MaxNameLength characters, or surge.
func DefaultName(specName string) string {
	name := strings.Trim(notLabel.ReplaceAllString(strings.ToLower(specName), "-"), "-")
	if name == "" {
		return "surge"
	}
	return strings.TrimRight(("surge-" + name)[:min(len(name)+6, MaxNameLength)], "-")
}

// SpecFiles are the files spec s names (a tokenizer.json, a corpus, not a
// built-in tokenizer), read by read from the path the spec writes, for
// the ConfigMap to carry beside it.
func SpecFiles(s *spec.Spec, read func(path string) ([]byte, error)) ([]File, error) {
	var files []File
	for _, p := range []string{s.Tokenizer, s.Corpus} {
		if p == "" || (p == s.Tokenizer && content.IsBuiltin(p)) {
			continue
		}
		data, err := read(p)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: filepath.ToSlash(p), Data: data})
	}
	return files, nil
}

// ParseQuantity reads a pod's CPU or memory, such as 4, 500m or 2Gi; it
// must be positive.
func ParseQuantity(s string) (resource.Quantity, error) {
	q, err := resource.ParseQuantity(s)
	if err != nil || q.Sign() <= 0 {
		return q, fmt.Errorf("%q: want a positive quantity like 4, 500m or 2Gi", s)
	}
	return q, nil
}

// Header is the comment heading the manifests of workload, the name it
// was read by, for cfg and the busiest shard's load if each request takes
// e2e.
func Header(workload string, cfg Config, load Load, e2e time.Duration) string {
	return fmt.Sprintf(`# surge k8s: %s as %d shards, each writing its bundle to /out/shard-INDEX.
# Every shard starts its schedule at %s: apply before then.
# Busiest shard, if each request takes %v: %.0f requests/s, %d in flight.
`, workload, cfg.shards(), cfg.StartAt.Format(time.RFC3339), e2e, load.PeakRate, load.InFlight)
}

// Summary says what manifests of cfg, sized for load, hold and when
// their shards start, and warns when an output volume of cfg loses the
// bundles with the pods, as surge k8s prints it.
func Summary(cfg Config, load Load) string {
	r := cfg.Resources.Requests
	s := fmt.Sprintf("surge k8s: Job %s, %d shards, each %s CPU and %s memory (busiest shard: %.0f requests/s, %d in flight)\n",
		cfg.Name, cfg.Shards, r.Cpu(), r.Memory(), load.PeakRate, load.InFlight)
	s += fmt.Sprintf("surge k8s: every shard starts at %s: apply the manifests before then\n", cfg.StartAt.Format(time.RFC3339))
	if !cfg.Output.Durable() {
		s += "surge k8s: warning: --output-volume emptydir: the bundles are lost when the pods end; use pvc:NAME[:SIZE] to keep them\n"
	}
	return s
}

// Files renders m as one YAML file per object, each headed by header and
// named N-KIND.yaml in the order of Objects.
func (m Manifest) Files(header string) ([]File, error) {
	objs := m.Objects()
	files := make([]File, len(objs))
	for i, o := range objs {
		var b strings.Builder
		b.WriteString(header)
		if err := Write(&b, objs[i:i+1]); err != nil {
			return nil, err
		}
		name := fmt.Sprintf("%d-%s.yaml", i+1, strings.ToLower(o.GetObjectKind().GroupVersionKind().Kind))
		files[i] = File{Path: name, Data: []byte(b.String())}
	}
	return files, nil
}
