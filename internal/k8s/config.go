package k8s

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"surge/internal/redact"
)

// Config describes the sharded run to write manifests for. Its zero value
// is not enough: Validate requires at least Target, Image, Spec and StartAt.
type Config struct {
	// Name names the Job; the ConfigMap is Name-spec. It must be a DNS-1123
	// label of at most MaxNameLength characters.
	Name string
	// Namespace is written into every object's metadata; "" leaves it to
	// kubectl (the current context's namespace).
	Namespace string
	// Image is the container image holding the surge binary, as a pod
	// would pull it: [registry/]path[:tag][@sha256:…].
	Image string
	// Shards is N, the number of pods, each running one shard; 0 means 1.
	Shards int
	// Target is surge run's --target: a URL, or MODEL=URL,... pairs, as the
	// pods reach the server (a Service's address, not localhost).
	Target string
	// StartAt is the instant every shard starts its schedule. The Job must
	// be applied early enough for all pods to be running by then.
	StartAt time.Time
	// Spec is the workload file (spec or trace), mounted as /spec/spec.yaml.
	Spec []byte
	// Files are the files the spec names by relative path (a tokenizer.json,
	// a corpus), mounted at the same paths under /spec.
	Files []File
	// Output is where the pods write their bundles; the zero value is an
	// emptyDir, lost with the pod.
	Output Output
	// Resources are each pod's requests and limits (see Size); the zero
	// value sets none.
	Resources corev1.ResourceRequirements
	// APIKeySecret, when set, is "SECRET:KEY": the pods read the API key
	// from that Secret's key, and surge sends it as a bearer token.
	APIKeySecret string
	// Salt is the nonce every shard puts before each conversation
	// (`surge run --salt`): one for all shards, so that sessions on
	// different shards share system prompts as they would in one run, and
	// the server's prefix cache sees the same reuse. "none" turns salting
	// off; "" passes no --salt, leaving each shard a nonce of its own
	// (unless the spec says salt: none).
	Salt string
	// Args are more `surge run` flags, appended to every pod's command
	// (such as --slo or --seed); those the manifests set are refused.
	Args []string
}

// File is a file by relative path: one a spec names, by the path the spec
// writes, or one of Manifest.Files.
type File struct {
	Path string
	Data []byte
}

// MaxNameLength is the longest Config.Name: a Job's pods are named
// NAME-INDEX-xxxxx, and their host names NAME-INDEX must stay DNS labels.
const MaxNameLength = 52

// MaxConfigMapBytes bounds the files a ConfigMap carries: Kubernetes
// refuses objects over 1 MiB, and the rest is left to metadata.
const MaxConfigMapBytes = 1<<20 - 16<<10

// ownFlags are the `surge run` flags the manifests set themselves.
var ownFlags = []string{"--shard", "--start-at", "--target", "-o", "--output", "--api-key-env", "--salt"}

// saltRef is what a salt nonce may hold: it goes into prompts as
// "[surge NONCE]\n", whose token count must not depend on what follows.
var saltRef = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// imageRef is the grammar of an image reference (distribution/reference):
// an optional registry host[:port], lowercase path components separated by
// '/', then an optional :tag and @algorithm:hex digest.
var imageRef = regexp.MustCompile(`^` +
	`(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?/)?` +
	`[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*` +
	`(?::[\w][\w.-]{0,127})?` +
	`(?:@[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,})?$`)

// Validate reports every problem of c, joined.
func (c Config) Validate() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkName(c.Name))
	if c.Namespace != "" {
		if msgs := validation.IsDNS1123Label(c.Namespace); len(msgs) > 0 {
			add(fmt.Errorf("namespace %q: %s", c.Namespace, strings.Join(msgs, "; ")))
		}
	}
	add(checkImage(c.Image))
	if c.Shards < 0 {
		add(fmt.Errorf("shards %d: want at least 1", c.Shards))
	}
	add(checkTarget(c.Target))
	if c.StartAt.IsZero() {
		add(errors.New("start instant missing: every shard needs the same one"))
	}
	if len(c.Spec) == 0 {
		add(errors.New("spec missing or empty"))
	}
	add(checkFiles(c.Spec, c.Files))
	add(c.Output.validate())
	add(checkSecret(c.APIKeySecret))
	if c.Salt != "" && !saltRef.MatchString(c.Salt) {
		add(fmt.Errorf("salt %q: want none or a nonce of letters, digits, '.', '_' or '-'", c.Salt))
	}
	add(checkArgs(c.Args))
	return errors.Join(errs...)
}

// shards is N, with 0 read as 1.
func (c Config) shards() int { return max(c.Shards, 1) }

func checkName(name string) error {
	if name == "" {
		return errors.New("name missing")
	}
	if len(name) > MaxNameLength {
		return fmt.Errorf("name %q: %d characters, want at most %d (pods are named NAME-INDEX-xxxxx)", name, len(name), MaxNameLength)
	}
	if msgs := validation.IsDNS1123Label(name); len(msgs) > 0 {
		return fmt.Errorf("name %q: %s", name, strings.Join(msgs, "; "))
	}
	return nil
}

func checkImage(image string) error {
	switch {
	case image == "":
		return errors.New("image missing")
	case !imageRef.MatchString(image):
		return fmt.Errorf("image %q: want [registry[:port]/]path[:tag][@sha256:digest], path in lowercase, like ghcr.io/acme/surge:v0.3.0", image)
	}
	return nil
}

// checkTarget checks a --target value: URL, or MODEL=URL pairs separated by
// commas, each URL http(s) with a host that is not the pod itself.
func checkTarget(target string) error {
	if target == "" {
		return errors.New("target missing: the pods need the server's URL as they reach it, e.g. http://vllm.default.svc:8000")
	}
	for item := range strings.SplitSeq(target, ",") {
		raw := item
		if k, v, ok := strings.Cut(item, "="); ok && !strings.Contains(k, "://") {
			raw = v
		}
		u, err := url.Parse(raw)
		shown := redact.URL(raw)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
			return fmt.Errorf("target %q: want an http:// or https:// URL with a host", shown)
		case u.User != nil:
			return fmt.Errorf("target %q: credentials in the URL would be written into the manifests in the clear; keep the key in a Secret (--api-key-secret SECRET:KEY)", shown)
		case isLoopback(u.Hostname()):
			return fmt.Errorf("target %q: %s is the pod itself; give the server's address in the cluster (a Service name)", shown, u.Hostname())
		}
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkFiles checks the files a spec names: relative paths inside the
// spec's folder, not the spec's own name, all fitting in one ConfigMap.
func checkFiles(spec []byte, files []File) error {
	var errs []error
	total := storedBytes(spec)
	seen := map[string]bool{specFile: true}
	for _, f := range files {
		total += storedBytes(f.Data)
		clean := path.Clean(f.Path)
		switch {
		case f.Path == "" || path.IsAbs(f.Path) || clean == ".." || strings.HasPrefix(clean, "../"):
			errs = append(errs, fmt.Errorf("file %q: the spec must name it by a path inside its own folder to ship it in a ConfigMap; or build it into the image", f.Path))
		case seen[clean]:
			errs = append(errs, fmt.Errorf("file %q: named twice, or clashes with %s", f.Path, specFile))
		}
		seen[clean] = true
	}
	if total > MaxConfigMapBytes {
		errs = append(errs, fmt.Errorf("spec and its files are %d bytes, over the %d a ConfigMap holds: use a built-in tokenizer, or build the files into the image", total, MaxConfigMapBytes))
	}
	return errors.Join(errs...)
}

// storedBytes is the size of data in a ConfigMap: text as it is, anything
// else base64-encoded in binaryData, 4 bytes for every 3.
func storedBytes(data []byte) int {
	if utf8.Valid(data) {
		return len(data)
	}
	return base64.StdEncoding.EncodedLen(len(data))
}

func checkSecret(ref string) error {
	if ref == "" {
		return nil
	}
	name, key, ok := cutSecret(ref)
	if !ok || len(validation.IsDNS1123Subdomain(name)) > 0 || len(validation.IsConfigMapKey(key)) > 0 {
		return fmt.Errorf("api key secret %q: want SECRET:KEY, like vllm-key:token", ref)
	}
	return nil
}

func checkArgs(args []string) error {
	for _, a := range args {
		flag, _, _ := strings.Cut(a, "=")
		for _, own := range ownFlags {
			// "-oDIR" is -o too.
			if flag == own || (own == "-o" && strings.HasPrefix(a, "-o")) {
				return fmt.Errorf("extra argument %s: the manifests set it themselves", a)
			}
		}
	}
	return nil
}

// cutSecret splits "SECRET:KEY".
func cutSecret(ref string) (name, key string, ok bool) { return strings.Cut(ref, ":") }
