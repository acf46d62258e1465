package k8s

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"surge/spec"
	"surge/trace"
)

func TestCheckShards(t *testing.T) {
	t.Parallel()
	clients := []trace.ClientInfo{{Name: "open"}, {Name: "chat", Concurrency: 4}}
	for _, tt := range []struct {
		n    int
		want string
	}{
		{1, ""}, {4, ""},
		{5, `client "chat" keeps 4 requests in flight, fewer than the shards: use at most 4`},
	} {
		err := CheckShards(clients, tt.n)
		if got := errString(err); got != tt.want {
			t.Errorf("%d shards: error %q, want %q", tt.n, got, tt.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestStartAt(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 400_000_000, time.FixedZone("CET", 3600))
	want := time.Date(2026, 11, 30, 11, 2, 1, 0, time.UTC)
	if got := StartAt(now, 2*time.Minute); !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("StartAt(%v, 2m) = %v, want %v: rounded up to a whole second, in UTC", now, got, want)
	}
}

func TestSharedSalt(t *testing.T) {
	t.Parallel()
	if got := SharedSalt("abc", trace.Header{}); got != "abc" {
		t.Errorf("a given salt: %q", got)
	}
	if got := SharedSalt("", trace.Header{Salt: trace.SaltNone}); got != "" {
		t.Errorf("salt: none in the workload: %q, want none", got)
	}
	a, b := SharedSalt("", trace.Header{}), SharedSalt("", trace.Header{})
	if len(a) != trace.NonceDigits || a == b {
		t.Errorf("new nonces %q, %q: want %d digits, a new one each time", a, b, trace.NonceDigits)
	}
}

func TestDefaultName(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 60)
	for _, tt := range []struct{ spec, want string }{
		{"", "surge"},
		{"---", "surge"},
		{"Chat Heavy_v2", "surge-chat-heavy-v2"},
		{long, "surge-" + long[:MaxNameLength-6]},
		{strings.Repeat("a", 45) + "-b", "surge-" + strings.Repeat("a", 45)},
	} {
		if got := DefaultName(tt.spec); got != tt.want || len(got) > MaxNameLength {
			t.Errorf("DefaultName(%q) = %q, want %q", tt.spec, got, tt.want)
		}
	}
}

func TestSpecFiles(t *testing.T) {
	t.Parallel()
	read := func(p string) ([]byte, error) {
		if p == "missing.txt" {
			return nil, os.ErrNotExist
		}
		return []byte("data of " + p), nil
	}
	files, err := SpecFiles(&spec.Spec{Tokenizer: "o200k_base", Corpus: "corpus.txt"}, read)
	if err != nil || len(files) != 1 || files[0].Path != "corpus.txt" || string(files[0].Data) != "data of corpus.txt" {
		t.Errorf("a built-in tokenizer and a corpus: %+v, %v; want the corpus alone", files, err)
	}
	files, err = SpecFiles(&spec.Spec{Tokenizer: "tok/tokenizer.json"}, read)
	if err != nil || len(files) != 1 || files[0].Path != "tok/tokenizer.json" {
		t.Errorf("a tokenizer file: %+v, %v", files, err)
	}
	if _, err := SpecFiles(&spec.Spec{Tokenizer: "o200k_base", Corpus: "missing.txt"}, read); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing corpus: %v", err)
	}
}

func TestParseQuantity(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s  string
		ok bool
	}{{"4", true}, {"500m", true}, {"2Gi", true}, {"0", false}, {"-1", false}, {"lots", false}} {
		q, err := ParseQuantity(tt.s)
		if (err == nil) != tt.ok {
			t.Errorf("ParseQuantity(%q) = %v, %v; want ok %v", tt.s, q.String(), err, tt.ok)
		}
		if err != nil && err.Error() != `"`+tt.s+`": want a positive quantity like 4, 500m or 2Gi` {
			t.Errorf("ParseQuantity(%q): error %q", tt.s, err)
		}
	}
}

func TestHeaderAndFiles(t *testing.T) {
	t.Parallel()
	cfg := base()
	m := mustManifests(t, cfg)
	h := Header("spec.yaml", cfg, Load{PeakRate: 12.4, InFlight: 7}, time.Minute)
	for _, want := range []string{fmt.Sprintf("spec.yaml as %d shards", cfg.Shards), cfg.StartAt.Format(time.RFC3339), "1m0s: 12 requests/s, 7 in flight"} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks %q:\n%s", want, h)
		}
	}
	files, err := m.Files(h)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(m.Objects()) || files[0].Path != "1-configmap.yaml" {
		t.Fatalf("files %v: want one per object, the ConfigMap first", files)
	}
	for _, f := range files {
		objs, err := Decode(strings.NewReader(string(f.Data)))
		if !strings.HasPrefix(string(f.Data), h) || err != nil || len(objs) != 1 {
			t.Errorf("%s: want the header, then one object: %d objects, %v", f.Path, len(objs), err)
		}
	}
}
