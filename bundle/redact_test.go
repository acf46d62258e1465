package bundle

import (
	"slices"
	"testing"
)

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want, why string }{
		{"http://127.0.0.1:8000", "http://127.0.0.1:8000", "no credentials"},
		{"https://user:s3cret@api.example.com/v1", "https://api.example.com/v1", "user and password"},
		{"http://tok@h:1", "http://h:1", "a user name alone may be a token"},
		{"llama=http://u:p@h1:8000,*=http://h2:8000", "llama=http://h1:8000,*=http://h2:8000", "a target list"},
		{"ttft.p99<=2s", "ttft.p99<=2s", "not a URL"},
		{"sim://Llama-3.1-8B@H100-SXMx1", "sim://Llama-3.1-8B@H100-SXMx1", "a simulated target has no credentials"},
		{"HTTPS://k@h", "HTTPS://h", "the scheme in capitals"},
		{"http://u:p@[::1", "http://[::1", "a broken URL loses its credentials too"},
		{`scraping: Get "http://u:p@h:1/metrics": EOF`, `scraping: Get "http://h:1/metrics": EOF`, "a URL in a message"},
	} {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("%s: RedactURL(%q) = %q, want %q", tt.why, tt.in, got, tt.want)
		}
	}
}

func TestRedactArgs(t *testing.T) {
	t.Parallel()
	in := []string{"surge", "run", "spec.yaml", "--target", "http://u:pw@h:8000", "--target=http://k@h:9",
		"--api-key", "sk-123", "--token=abc", "--api-key-env", "OPENAI_API_KEY",
		"--header", "X-Api-Key: gw-1", "--header=Authorization: Basic dTpw", "--header", "X-Team: a", "-H", "junk"}
	want := []string{"surge", "run", "spec.yaml", "--target", "http://h:8000", "--target=http://h:9",
		"--api-key", "(redacted)", "--token=(redacted)", "--api-key-env", "OPENAI_API_KEY",
		"--header", "X-Api-Key: (redacted)", "--header=Authorization: (redacted)", "--header", "X-Team: a", "-H", "junk: (redacted)"}
	if got := RedactArgs(in); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if in[4] != "http://u:pw@h:8000" {
		t.Error("RedactArgs changed its argument")
	}
}
