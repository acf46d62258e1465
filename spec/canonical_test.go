package spec

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.canonical")

func TestCanonicalGolden(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("full.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Canonical()
	const golden = "testdata/full.canonical"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Canonical differs from %s (run go test -update):\n%s", golden, got)
	}
}

// TestCanonicalRoundTrip checks that the canonical form of every test spec
// parses back to the same canonical bytes.
func TestCanonicalRoundTrip(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test specs: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		once := s.Canonical()
		s2, err := Parse(f+" (canonical)", once)
		if err != nil {
			t.Fatalf("%s: canonical form does not parse:\n%v\n%s", f, err, once)
		}
		if twice := s2.Canonical(); !bytes.Equal(once, twice) {
			t.Errorf("%s: canonical form is not a fixed point:\n%s\nthen\n%s", f, once, twice)
		}
	}
}

func TestCanonicalIgnoresSpelling(t *testing.T) {
	t.Parallel()
	a := `version: 1
duration: 600s
rate: 20/s
clients:
  - {name: a, model: m, weight: 3, input: {dist: lognormal, median: 1k, sigma: 1}, output: 256}
  - {name: b, model: m, input: 1000, output: "fixed(value=256)"}
slo:
  ttft: {p99: 2s, p50: 0.5s}
`
	b := `# the same workload, written differently
clients:
  - name: a
    model: m
    rate: 900/m
    api: chat
    input: "lognormal(median=1000, sigma=1)"
    output: 256
    arrival: {process: poisson}
  - name: b
    model: m
    rate: 5
    input: 1k
    output: 256
    prompt: mixed
slo:
  ttft: {p50: 500ms, p99: 2000ms}
duration: 10m
warmup: 0s
seed: 1
version: 1
`
	sa, err := Parse("a", []byte(a))
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Parse("b", []byte(b))
	if err != nil {
		t.Fatal(err)
	}
	if ca, cb := sa.Canonical(), sb.Canonical(); !bytes.Equal(ca, cb) {
		t.Errorf("same workload, different canonical forms:\n%s\nvs\n%s", ca, cb)
	}
	sb.Clients[1].Prompt = "code"
	if bytes.Equal(sa.Canonical(), sb.Canonical()) {
		t.Errorf("a different prompt style gave the same canonical form")
	}
}

// TestCanonicalKeepsWeights checks that open-loop weights reach the
// canonical form exactly when they change the workload. Clients a and b
// share the top-level rate with equal weights w, so each gets 10/s whatever
// w is; but a closed-loop client c gets requests × 1 / (2w + 1) sessions, so
// with c present w changes the trace and must change the bytes.
func TestCanonicalKeepsWeights(t *testing.T) {
	t.Parallel()
	const spec = `version: 1
requests: 1000
rate: 20/s
clients:
  - {name: a, model: m, weight: %[1]s, input: 1, output: 1}
  - {name: b, model: m, weight: %[1]s, input: 1, output: 1}
%[2]s`
	const closed = "  - {name: c, model: m, concurrency: 4, input: 1, output: 1}\n"
	tests := []struct {
		reason        string
		w1, w2, extra string
		wantSame      bool
	}{
		{"with a closed-loop client, w = 1 vs 2 gives c 333 vs 200 sessions at the same rates", "1", "2", closed, false},
		{"without one, w = 1 vs 2 is the same workload: 10/s each", "1", "2", "", true},
		{"the same weights give the same bytes", "3", "3", closed, true},
	}
	for _, tt := range tests {
		var forms [2][]byte
		for i, w := range []string{tt.w1, tt.w2} {
			s, err := Parse("t.yaml", []byte(fmt.Sprintf(spec, w, tt.extra)))
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			forms[i] = s.Canonical()
			again, err := Parse("canonical", forms[i])
			if err != nil {
				t.Fatalf("%s: canonical form does not parse: %v\n%s", tt.reason, err, forms[i])
			}
			if !bytes.Equal(again.Canonical(), forms[i]) {
				t.Errorf("%s: canonical form is not a fixed point:\n%s", tt.reason, forms[i])
			}
		}
		if same := bytes.Equal(forms[0], forms[1]); same != tt.wantSame {
			t.Errorf("%s: equal canonical bytes = %t, want %t:\n%s\nvs\n%s", tt.reason, same, tt.wantSame, forms[0], forms[1])
		}
	}
}
