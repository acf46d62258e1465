package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestListenAddr: --port replaces --addr's port and keeps its host.
func TestListenAddr(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		addr string
		port int
		want string
	}{
		{"127.0.0.1:8000", 0, "127.0.0.1:8000"},
		{"127.0.0.1:8000", 9000, "127.0.0.1:9000"},
		{"0.0.0.0:8000", 8001, "0.0.0.0:8001"},
		{"[::1]:8000", 8001, "[::1]:8001"},
		{"no-port", 8001, "no-port"}, // net.Listen then says what is wrong
	} {
		if got := listenAddr(tt.addr, tt.port); got != tt.want {
			t.Errorf("listenAddr(%q, %d) = %q, want %q", tt.addr, tt.port, got, tt.want)
		}
	}
}

// TestAliases: a deprecated name sets its flag's value and says to use
// the new one; --json sets --format to json.
func TestAliases(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args          []string
		model, format string
		deprecated    bool
	}{
		{[]string{"--engine-model", "qwen3-8b"}, "qwen3-8b", "text", false},
		{[]string{"--model", "qwen3-8b"}, "qwen3-8b", "text", true},
		{[]string{"--json"}, "", "json", false},
		{[]string{"--json=false"}, "", "text", false},
		{[]string{"--format", "json"}, "", "json", false},
	} {
		var model, format string
		var stderr bytes.Buffer
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		fs.SetOutput(&stderr)
		fs.StringVar(&model, "engine-model", "", "")
		deprecatedAlias(fs, "model", "engine-model")
		fs.StringVar(&format, "format", "text", "")
		fs.Var(formatAlias{&format, "json"}, "json", "")
		fs.Lookup("json").NoOptDefVal = "true"
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		said := strings.Contains(stderr.String(), "deprecated, use --engine-model")
		if model != tt.model || format != tt.format || said != tt.deprecated {
			t.Errorf("%v: model %q, format %q, stderr %q; want %q, %q, deprecation said %v", tt.args, model, format, stderr.String(), tt.model, tt.format, tt.deprecated)
		}
	}
}
