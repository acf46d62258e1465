package k8s

import (
	"strings"
	"testing"
)

// TestCheckTargetRefusesCredentials: a URL with user information would
// be written into the manifests, so it is refused, and no error quotes
// the password.
func TestCheckTargetRefusesCredentials(t *testing.T) {
	t.Parallel()
	for _, target := range []string{
		"http://alice:pw-9x@vllm.default.svc:8000",
		"llama=http://vllm:8000,qwen=http://tok-9x@sglang:8000",
		"http://alice:pw-9x@127.0.0.1:8000",
		"ftp://alice:pw-9x@h",
	} {
		err := checkTarget(target)
		if err == nil || strings.Contains(err.Error(), "pw-9x") || strings.Contains(err.Error(), "tok-9x") {
			t.Errorf("checkTarget(%q) = %v", target, err)
		}
	}
	if err := checkTarget("http://vllm.default.svc:8000"); err != nil {
		t.Errorf("a plain target: %v", err)
	}
}
