package selftest

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	t.Parallel()
	opts := Options{Concurrencies: []int{4, 32}, Duration: time.Second, Version: "test"}
	if testing.Short() {
		opts = Options{Concurrencies: []int{4}, Duration: 250 * time.Millisecond, Tokens: 8, Version: "test"}
	}
	r, err := Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Points) != len(opts.Concurrencies) {
		t.Fatalf("%d points, want one per concurrency (%d)", len(r.Points), len(opts.Concurrencies))
	}
	for i, p := range r.Points {
		if p.Concurrency != opts.Concurrencies[i] || p.Requests <= 0 || p.RequestsPerS <= 0 || p.Failed != 0 {
			t.Errorf("point %d: %+v, want concurrency %d, requests and a rate, no failure", i, p, opts.Concurrencies[i])
		}
		// Every counted request had the server's full stream.
		if want := float64(r.Tokens) * p.RequestsPerS; !near(p.TokenEventsPerS, want) {
			t.Errorf("point %d: %.0f token events/s, want %d per request: %.0f", i, p.TokenEventsPerS, r.Tokens, want)
		}
	}
	if !r.Current("test") {
		t.Errorf("a result just measured is not current: %+v", r)
	}
	path := filepath.Join(t.TempDir(), "cache", "selftest.json")
	if err := Save(path, r); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("loaded %+v, saved %+v", got, r)
	}
}

// near reports whether a and b agree to a part in a million (floating
// point division aside, they are equal).
func near(a, b float64) bool { return a-b < 1e-6*b && b-a < 1e-6*b }

func TestOptionsCheck(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts Options
		want string // "" for no error
	}{
		{"positive", Options{Concurrencies: []int{1, 64}, Duration: time.Second}, ""},
		{"no concurrencies", Options{Duration: time.Second}, ""},
		{"a zero concurrency", Options{Concurrencies: []int{8, 0}, Duration: time.Second}, "--concurrency 0: must be positive"},
		{"a negative concurrency", Options{Concurrencies: []int{-2}, Duration: time.Second}, "--concurrency -2: must be positive"},
		{"a zero duration", Options{}, "--duration 0s: must be positive"},
		{"a negative duration", Options{Duration: -time.Second}, "--duration -1s: must be positive"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opts.Check()
			if tt.want == "" {
				if err != nil {
					t.Errorf("Check() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestRunRefusesBadConcurrency(t *testing.T) {
	t.Parallel()
	if _, err := Run(t.Context(), Options{Concurrencies: []int{8, 0}}); err == nil {
		t.Error("a concurrency of 0 was accepted")
	}
}

func TestLoadMissing(t *testing.T) {
	t.Parallel()
	_, err := Load(filepath.Join(t.TempDir(), "none.json"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("loading a missing cache: %v, want fs.ErrNotExist", err)
	}
}
